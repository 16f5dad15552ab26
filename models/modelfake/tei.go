package modelfake

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// TEI is Hugging Face text-embeddings-inference as the fake serves it: one
// model, the first of Options.Models, described at /info (its revision a
// hash of the model and Options.Weights; its window Options.ContextLength;
// no width, which a client learns by embedding), and POST /embed
// {"inputs": [...], "truncate": false} answered [[floats], …] with the
// tokens read in the x-compute-tokens header. An input over the window
// is refused with 413 unless truncate is true (TEI's auto_truncate is off
// by default). No chat: TEI has none.

func (s *Server) teiInfo(w http.ResponseWriter, _ *request) {
	model := s.opt.Models[0]
	writeJSON(w, map[string]any{
		"model_id": model, "model_sha": Digest(model + s.opt.Weights)[:40], "model_dtype": "float16",
		"model_type":              map[string]any{"embedding": map[string]any{"pooling": "cls"}},
		"max_concurrent_requests": 512, "max_input_length": s.opt.ContextLength, "max_batch_tokens": 16384,
		"max_client_batch_size": 32, "auto_truncate": false, "tokenization_workers": 4, "version": "1.8.0",
	})
}

func (s *Server) teiEmbed(w http.ResponseWriter, r *request) {
	var req struct {
		Inputs   json.RawMessage `json:"inputs"`
		Truncate *bool           `json:"truncate"`
	}
	var inputs []string
	if err := json.Unmarshal(r.body, &req); err != nil || json.Unmarshal(req.Inputs, &inputs) != nil {
		var one string
		if json.Unmarshal(req.Inputs, &one) != nil {
			writeError(w, TEIEmbed, http.StatusUnprocessableEntity, "fake: inputs must be a string or a list of strings")
			return
		}
		inputs = []string{one}
	}
	truncate := s.opt.TruncateSilently || (req.Truncate != nil && *req.Truncate)
	vecs, tokens, ok := s.vectors(w, r, TEIEmbed, inputs, s.opt.ContextLength, truncate)
	if !ok {
		return
	}
	w.Header().Set("x-compute-tokens", strconv.Itoa(tokens))
	writeJSON(w, vecs)
}
