package receiver

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SchemaPath is docs/push.schema.json of this module.
func SchemaPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "docs", "push.schema.json")
}

// Schemas are the contract's compiled schemas: the request body, a 202's
// body and a task.
type Schemas struct {
	Request, Accepted, Task *jsonschema.Schema
}

// LoadSchemas compiles docs/push.schema.json.
func LoadSchemas() (*Schemas, error) {
	b, err := os.ReadFile(SchemaPath())
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("push.schema.json: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("push.schema.json", doc); err != nil {
		return nil, err
	}
	var s Schemas
	for loc, dst := range map[string]**jsonschema.Schema{"push.schema.json": &s.Request,
		"push.schema.json#/$defs/accepted": &s.Accepted, "push.schema.json#/$defs/task": &s.Task} {
		if *dst, err = c.Compile(loc); err != nil {
			return nil, fmt.Errorf("compile %s: %w", loc, err)
		}
	}
	return &s, nil
}

// Validate checks a JSON document against one of the schemas.
func Validate(s *jsonschema.Schema, body []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return err
	}
	return s.Validate(v)
}
