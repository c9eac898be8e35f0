package testenv

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// requestTimeout bounds each of testenv's own requests, so a server that stopped answering is retried.
const requestTimeout = 5 * time.Second

// do sends one request with admin credentials and returns the status code and body. A non-nil body is
// sent as JSON.
func (e *Environment) do(ctx context.Context, method, path string, body any) (int, []byte, error) {
	var reader io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return 0, nil, fmt.Errorf("testenv: encoding %s %s: %w", method, path, err)
		}
		reader = bytes.NewReader(data)
	}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, e.host+path, reader)
	if err != nil {
		return 0, nil, fmt.Errorf("testenv: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("testenv: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, fmt.Errorf("testenv: reading %s %s: %w", method, path, err)
	}
	return resp.StatusCode, data, nil
}

// statusError turns an unexpected answer into an error carrying the server's message.
func statusError(what string, status int, body []byte) error {
	var s struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &s) != nil || s.Message == "" {
		s.Message = string(bytes.TrimSpace(body))
	}
	return fmt.Errorf("testenv: %s: %d %s: %s", what, status, http.StatusText(status), s.Message)
}
