package main

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// connection is one keep-alive HTTP/1.1 connection: a request's bytes go out in one write, and
// its answer is read whole before the next request.
type connection struct {
	conn   *tls.Conn
	reader *bufio.Reader
}

func newConnection(conn *tls.Conn) *connection {
	return &connection{conn: conn, reader: bufio.NewReaderSize(conn, 32<<10)}
}

// roundTrip sends one request and reads its answer (a Content-Length or chunked body); a status of
// 300 or more is an error that carries the body.
func (c *connection) roundTrip(request []byte) error {
	if _, err := c.conn.Write(request); err != nil {
		return err
	}
	status, length, chunked, err := c.readHead()
	if err != nil {
		return err
	}
	var body []byte
	switch {
	case chunked:
		body, err = c.readChunked()
	case length >= 0:
		body = make([]byte, length)
		_, err = io.ReadFull(c.reader, body)
	default:
		return fmt.Errorf("status %d: an answer with neither a length nor chunks", status)
	}
	if err != nil {
		return err
	}
	if status >= 300 {
		return fmt.Errorf("status %d: %s", status, body)
	}
	return nil
}

// readHead reads the status line and the headers; length is -1 when no Content-Length was sent.
func (c *connection) readHead() (status, length int, chunked bool, err error) {
	line, err := c.line()
	if err != nil {
		return 0, 0, false, err
	}
	// "HTTP/1.1 201 Created"
	if len(line) < 12 || !strings.HasPrefix(line, "HTTP/1.1 ") {
		return 0, 0, false, fmt.Errorf("not an HTTP/1.1 status line: %q", line)
	}
	if status, err = strconv.Atoi(line[9:12]); err != nil {
		return 0, 0, false, fmt.Errorf("bad status line %q", line)
	}
	length = -1
	for {
		if line, err = c.line(); err != nil {
			return 0, 0, false, err
		}
		if line == "" {
			return status, length, chunked, nil
		}
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimSpace(value)
		switch strings.ToLower(name) {
		case "content-length":
			if length, err = strconv.Atoi(value); err != nil || length < 0 {
				return 0, 0, false, fmt.Errorf("bad content-length %q", value)
			}
		case "transfer-encoding":
			chunked = strings.EqualFold(value, "chunked")
		}
	}
}

// readChunked reads a chunked body to its last chunk (trailers are not expected and refused).
func (c *connection) readChunked() ([]byte, error) {
	var body []byte
	for {
		line, err := c.line()
		if err != nil {
			return nil, err
		}
		size, err := strconv.ParseInt(strings.TrimSpace(strings.SplitN(line, ";", 2)[0]), 16, 32)
		if err != nil || size < 0 {
			return nil, fmt.Errorf("bad chunk size %q", line)
		}
		if size == 0 {
			if end, err := c.line(); err != nil || end != "" {
				return nil, fmt.Errorf("expected the end of a chunked body, read %q (%v)", end, err)
			}
			return body, nil
		}
		start := len(body)
		body = append(body, make([]byte, size)...)
		if _, err := io.ReadFull(c.reader, body[start:]); err != nil {
			return nil, err
		}
		if end, err := c.line(); err != nil || end != "" {
			return nil, fmt.Errorf("a chunk not followed by CRLF: %q (%v)", end, err)
		}
	}
}

// line reads one CRLF-terminated line without its ending.
func (c *connection) line() (string, error) {
	line, err := c.reader.ReadString('\n')
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"), nil
}
