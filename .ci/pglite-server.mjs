// A PGlite (PostgreSQL 18 in WASM) with pgvector, served over the Postgres wire protocol for
// the pgsync tests. .ci/pglite.sh copies this file next to its node_modules and runs it:
//
//   node server.mjs PORT        (0 picks a free port) prints "postgres://…" once listening
//
// Stock pglite-socket serves ONE backend session, and three of its habits break a Go client
// (see ../shared/README.md). This wrapper fixes them:
//   - Connections take turns: the first message of each is read at once (an SSL request is
//     refused, a cancel request closed, so pgx's cancel never waits behind the session it
//     cancels), and a startup waits until the connection before it has closed, at most
//     QUEUE_MS: then it gets a proper "too many connections" error (53300), never a hang or
//     garbage.
//   - Between connections the session is reset (ROLLBACK of an open transaction, then
//     DISCARD ALL), so SET, roles and prepared statements do not leak from one client to
//     the next (pgx fails with 42P05 otherwise).
//   - COPY … FROM STDIN, which kills the WASM backend (it cannot block for the client's data
//     in the middle of a query), is emulated: the server answers CopyInResponse itself,
//     gathers the CopyData, and at CopyDone runs the same COPY from PGlite's /dev/blob in
//     the same session and transaction. The rows are parsed by Postgres's own COPY code,
//     binary format included, so pgx's CopyFrom is tested as it runs against a server.
import net from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const QUEUE_MS = 30_000; // how long a connection waits for the one before it
const COPY_FROM_STDIN = /^\s*copy\s+([\s\S]*?)\bfrom\s+stdin\b([\s\S]*)$/i;

const port = Number(process.argv[2] ?? 0);
const db = await PGlite.create({ extensions: { vector } });
await db.exec('CREATE EXTENSION IF NOT EXISTS vector');

const waiting = []; // connections whose startup waits for the session
let busy = false;

const server = net.createServer((socket) => {
  socket.setNoDelay(true);
  socket.on('error', () => socket.destroy());
  readStartup(socket);
});
server.listen(port, '127.0.0.1', () => {
  const { port } = server.address();
  console.log(`postgres://postgres@127.0.0.1:${port}/postgres?sslmode=disable`);
});
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => { server.close(); db.close().finally(() => process.exit(0)); });
}

// readStartup reads the untyped first messages of a connection: SSL and cancel requests
// are answered at once; a startup message queues the connection for the session.
function readStartup(socket) {
  let buf = Buffer.alloc(0);
  const onData = (data) => {
    buf = Buffer.concat([buf, data]);
    while (buf.length >= 8 && buf.length >= buf.readInt32BE(0)) {
      const len = buf.readInt32BE(0);
      const code = buf.readInt32BE(4);
      const msg = buf.subarray(0, len);
      buf = buf.subarray(len);
      if (code === SSL_REQUEST) { socket.write('N'); continue; }
      if (code === CANCEL_REQUEST) { socket.destroy(); return; } // one session: nothing to cancel from outside
      socket.off('data', onData);
      socket.pause();
      const conn = { socket, startup: msg, rest: buf };
      conn.timer = setTimeout(() => {
        const i = waiting.indexOf(conn);
        if (i < 0) return;
        waiting.splice(i, 1);
        socket.end(errorResponse('53300', `too many connections: the PGlite session served one other client for ${QUEUE_MS} ms`));
      }, QUEUE_MS);
      waiting.push(conn);
      next();
      return;
    }
  };
  socket.on('data', onData);
}

async function next() {
  if (busy || waiting.length === 0) return;
  busy = true;
  const conn = waiting.shift();
  clearTimeout(conn.timer);
  if (conn.socket.destroyed) { busy = false; next(); return; }
  try {
    await serve(conn);
  } finally {
    await reset();
    busy = false;
    next();
  }
}

// reset leaves the session as a new connection expects it.
async function reset() {
  try {
    if (db.isInTransaction()) await db.exec('ROLLBACK');
    await db.exec('DISCARD ALL');
  } catch (err) {
    console.error('pglite-server: reset:', err.message);
  }
}

// serve relays one connection's messages to the session until it closes.
function serve({ socket, startup, rest }) {
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0);
    let copy = null; // { sql, chunks } while a COPY FROM STDIN gathers data
    let chain = Promise.resolve();
    const done = () => { socket.destroy(); resolve(); };
    socket.on('close', () => chain.then(resolve));

    const exec = (msg) => db.runExclusive(() => db.execProtocolRawStream(msg, {
      onRawData: (out) => { if (out.length && !socket.destroyed) socket.write(Buffer.from(out)); },
    }));

    const handle = async (type, msg) => {
      if (copy) return handleCopy(type, msg);
      if (type === 'X') { done(); return; }
      if (type === 'Q') {
        const sql = msg.subarray(5, msg.length - 1).toString('utf8');
        const m = COPY_FROM_STDIN.exec(sql);
        if (m) {
          copy = { sql: `COPY ${m[1]} FROM '/dev/blob' ${m[2].replace(/;\s*$/, '')}`, chunks: [] };
          const cols = (m[1].match(/\(([^)]*)\)/)?.[1] ?? '').split(',').filter((s) => s.trim()).length;
          const binary = /\bbinary\b/i.test(m[2]) ? 1 : 0;
          const g = Buffer.alloc(1 + 4 + 1 + 2 + 2 * cols);
          g.write('G', 0); g.writeInt32BE(g.length - 1, 1); g.writeInt8(binary, 5); g.writeInt16BE(cols, 6);
          for (let i = 0; i < cols; i++) g.writeInt16BE(binary, 8 + 2 * i);
          socket.write(g);
          return;
        }
      }
      await exec(new Uint8Array(msg));
    };

    const handleCopy = async (type, msg) => {
      if (type === 'd') { copy.chunks.push(Buffer.from(msg.subarray(5))); return; }
      const { sql, chunks } = copy;
      copy = null;
      if (type === 'f') {
        await failCopy('57014', 'COPY from stdin failed: ' + msg.subarray(5, msg.length - 1).toString('utf8'));
        return;
      }
      if (type !== 'c') { await failCopy('08P01', `unexpected message ${type} during COPY`); return; }
      try {
        const res = await db.query(sql, [], { blob: new Blob([Buffer.concat(chunks)]) });
        socket.write(Buffer.concat([commandComplete(`COPY ${res.affectedRows ?? 0}`), readyForQuery()]));
      } catch (err) {
        await failCopy(err.code ?? 'XX000', err.message);
      }
    };

    const failCopy = async (code, message) => {
      socket.write(Buffer.concat([errorResponse(code, message), readyForQuery(true)]));
    };

    const onData = (data) => {
      buf = Buffer.concat([buf, data]);
      while (buf.length >= 5 && buf.length >= 1 + buf.readInt32BE(1)) {
        const len = 1 + buf.readInt32BE(1);
        const msg = buf.subarray(0, len);
        buf = buf.subarray(len);
        const type = String.fromCharCode(msg[0]);
        chain = chain.then(() => handle(type, msg)).catch((err) => {
          console.error('pglite-server:', err.message);
          done();
        });
      }
    };

    chain = chain.then(() => exec(new Uint8Array(startup)));
    socket.on('data', onData);
    if (rest.length) onData(rest);
    socket.resume();
  });
}

function commandComplete(tag) {
  const b = Buffer.alloc(1 + 4 + Buffer.byteLength(tag) + 1);
  b.write('C', 0); b.writeInt32BE(b.length - 1, 1); b.write(tag, 5);
  return b;
}

function readyForQuery(failed = false) {
  const status = db.isInTransaction() ? (failed ? 'E' : 'T') : 'I';
  const b = Buffer.alloc(6);
  b.write('Z', 0); b.writeInt32BE(5, 1); b.write(status, 5);
  return b;
}

function errorResponse(code, message) {
  const fields = [['S', 'ERROR'], ['V', 'ERROR'], ['C', code], ['M', message]];
  const body = Buffer.concat(fields.map(([k, v]) => Buffer.from(k + v + '\0')).concat([Buffer.from('\0')]));
  const b = Buffer.alloc(5);
  b.write('E', 0); b.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([b, body]);
}
