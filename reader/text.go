package reader

import (
	"context"
	"strings"
)

// textReader reads plain text as it is, with line endings normalised to
// "\n".
type textReader struct{}

// Read implements [Reader].
func (textReader) Read(_ context.Context, body []byte, _ ReadParams) (string, error) {
	s := string(body)
	if strings.IndexByte(s, '\r') < 0 {
		return s, nil
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n"), nil
}
