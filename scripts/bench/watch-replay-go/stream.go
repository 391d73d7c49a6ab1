package main

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// watch is what every stream of this process reads: the same request, the same expected end.
type watch struct {
	request []byte
	// events is the number of lines (events) each stream must carry.
	events int
	// lastResourceVersion is metadata.resourceVersion of the last event's object.
	lastResourceVersion string
}

// stream reads one watch response on an open TLS connection. It parses the response head and the
// chunked framing itself and counts the newlines of the chunk data only; the last line is kept
// and checked, so a server that sends fewer or other events fails the run.
type stream struct {
	w     *watch
	conn  *tls.Conn
	buf   []byte
	lines int
	bytes int64
	// last holds the data of the last line once lines reached events-1.
	last []byte
}

// run sends the request and reads until the last event (nil) or a failure.
func (s *stream) run() error {
	if _, err := s.conn.Write(s.w.request); err != nil {
		return fmt.Errorf("sending the watch: %w", err)
	}
	body, err := s.readHead()
	if err != nil {
		return err
	}
	return s.readChunks(body)
}

// fill reads more bytes after the `kept` bytes already at the start of s.buf.
func (s *stream) fill(kept int) (int, error) {
	if kept == len(s.buf) {
		s.buf = append(s.buf, make([]byte, len(s.buf))...)
	}
	n, err := s.conn.Read(s.buf[kept:])
	if n == 0 && err != nil {
		if err == io.EOF {
			return 0, fmt.Errorf("connection ended after %d of %d events", s.lines, s.w.events)
		}
		return 0, err
	}
	return kept + n, nil
}

// readHead reads up to the end of the response head, checks it is a chunked 200, and returns
// the bytes read after it.
func (s *stream) readHead() ([]byte, error) {
	have := 0
	for {
		var err error
		if have, err = s.fill(have); err != nil {
			return nil, err
		}
		end := bytes.Index(s.buf[:have], []byte("\r\n\r\n"))
		if end == -1 {
			continue
		}
		head := s.buf[:end+2]
		if !bytes.HasPrefix(head, []byte("HTTP/1.1 200 ")) {
			return nil, fmt.Errorf("watch answered %q", head[:min(len(head), 12)])
		}
		if !chunked(head) {
			return nil, fmt.Errorf("watch response is not chunked")
		}
		return s.buf[end+4 : have], nil
	}
}

// chunked reports whether the head has a Transfer-Encoding: chunked header line.
func chunked(head []byte) bool {
	for _, line := range bytes.Split(head, []byte("\r\n")) {
		name, value, ok := bytes.Cut(line, []byte(":"))
		if ok && bytes.EqualFold(bytes.TrimSpace(name), []byte("transfer-encoding")) {
			return bytes.EqualFold(bytes.TrimSpace(value), []byte("chunked"))
		}
	}
	return false
}

// readChunks reads the chunked body, starting with `pending` (bytes already read), until the
// last event arrived.
func (s *stream) readChunks(pending []byte) error {
	// Moved to the front of s.buf: what follows is read after it.
	have := copy(s.buf, pending)
	at := 0
	for {
		nl := bytes.IndexByte(s.buf[at:have], '\n')
		if nl == -1 {
			// An incomplete size line: keep it and read more.
			have = copy(s.buf, s.buf[at:have])
			at = 0
			var err error
			if have, err = s.fill(have); err != nil {
				return err
			}
			continue
		}
		size, err := chunkSize(s.buf[at : at+nl])
		if err != nil {
			return err
		}
		at += nl + 1
		if size == 0 {
			return fmt.Errorf("stream ended after %d of %d events", s.lines, s.w.events)
		}
		done, err := s.readData(size, &at, &have)
		if done || err != nil {
			return err
		}
	}
}

// chunkSize parses a chunk-size line (hex, optional extensions, CR).
func chunkSize(line []byte) (int, error) {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if i := bytes.IndexByte(line, ';'); i != -1 {
		line = line[:i]
	}
	size, err := strconv.ParseUint(string(bytes.TrimSpace(line)), 16, 31)
	if err != nil {
		return 0, fmt.Errorf("bad chunk size line %q", line)
	}
	return int(size), nil
}

// readData scans `size` bytes of chunk data and the CRLF after it, reading as needed; true once
// the last event was reached and checked.
func (s *stream) readData(size int, at, have *int) (bool, error) {
	left := size + 2 // the data and its CRLF
	for left > 0 {
		if *at == *have {
			var err error
			if *have, err = s.fill(0); err != nil {
				return false, err
			}
			*at = 0
		}
		n := min(left, *have-*at)
		data := s.buf[*at : *at+n]
		if left-n < 2 {
			// This read reaches into the CRLF: it is framing, not data.
			data = data[:max(0, len(data)-(2-(left-n)))]
		}
		if s.scan(data) {
			return true, s.checkLast()
		}
		*at += n
		left -= n
	}
	return false, nil
}

// scan counts the newlines of chunk data; true once the events-th one was reached. Until the
// last line starts, whole segments are counted at once.
func (s *stream) scan(data []byte) bool {
	s.bytes += int64(len(data))
	if need := s.w.events - 1 - s.lines; need > 0 {
		c := bytes.Count(data, []byte{'\n'})
		if c < need {
			s.lines += c
			return false
		}
		for ; need > 0; need-- {
			data = data[bytes.IndexByte(data, '\n')+1:]
		}
		s.lines = s.w.events - 1
	}
	i := bytes.IndexByte(data, '\n')
	if i == -1 {
		s.last = append(s.last, data...)
		return false
	}
	s.last = append(s.last, data[:i]...)
	s.lines++
	return true
}

// checkLast checks the last line is the ADDED of the last object written.
func (s *stream) checkLast() error {
	var event struct {
		Type   string `json:"type"`
		Object struct {
			Metadata struct {
				ResourceVersion string `json:"resourceVersion"`
			} `json:"metadata"`
		} `json:"object"`
	}
	if err := json.Unmarshal(s.last, &event); err != nil {
		return fmt.Errorf("last event is not JSON: %w", err)
	}
	rv := event.Object.Metadata.ResourceVersion
	if event.Type != "ADDED" || rv != s.w.lastResourceVersion {
		return fmt.Errorf("last event is %s at %s, expected ADDED at %s", event.Type, rv, s.w.lastResourceVersion)
	}
	return nil
}
