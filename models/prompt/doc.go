// Package prompt is what a model header writer says and what it accepts,
// as pure functions: the system and user prompts (the document first, the
// chunk last, fenced by markers its text cannot close), the JSON schema of
// the answer, the repair prompt, instruction-like text withheld, and the
// checks of every answer (fields in their closed lists, claims quoted from
// the chunk, thresholds the chunk states). PromptVersion names them.
package prompt
