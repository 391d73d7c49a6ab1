// The client-go side of the work queue differential test (scripts/workqueue-diff/diff.ts): reads
// operations as JSON lines on stdin, runs them on client-go's rate-limiting work queue (typed queue
// under delaying queue under rate-limiting queue, per-key exponential limiter 5 ms … 1000 s) with
// client-go's fake clock, and prints one JSON line per operation with what could be observed.
//
// Blocking calls (a waiting Get, ShutDownWithDrain) run in goroutines; after every operation the
// program waits until the queue is quiet (every such goroutine and the delaying queue's loop are
// parked on the queue's condition variable or the loop's select), so results do not depend on the
// scheduler. It learns that from the runtime's goroutine dump: Go offers no other way to ask
// whether a goroutine is parked.
//
// Operations: begin, end (done for every held key, then ShutDown), add, addAfter (ms), addRateLimited, forget, numRequeues, get (does not
// block: "!empty" when Get would), getWait, done (slot: index into the keys held), shutDown,
// shutDownWithDrain, step (ms). Output: {"r": result, "g": keys handed to waiting getters this
// step (sorted, "!shutdown" for a getter told to stop), "d": drains returned, "len", "sd"}.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/util/workqueue"
	testingclock "k8s.io/utils/clock/testing"
)

type op struct {
	Op   string `json:"op"`
	Key  string `json:"key"`
	Ms   int64  `json:"ms"`
	Slot int    `json:"slot"`
}

type result struct {
	R   any      `json:"r"`
	G   []string `json:"g"`
	D   int      `json:"d"`
	Len int      `json:"len"`
	SD  bool     `json:"sd"`
}

const maxWaiters = 3

type session struct {
	clock   *testingclock.FakeClock
	q       workqueue.TypedRateLimitingInterface[string]
	held    []string
	getters int
	drains  int
	// ShutDown was called: client-go's delaying queue ignores any later ShutDown, so one would not
	// release a pending drain as ours does (a documented difference); the driver skips that case.
	shutDownCalled bool

	mu        sync.Mutex
	gotGetter []string
	gotDrain  int
}

func newSession() *session {
	clock := testingclock.NewFakeClock(time.Unix(0, 0))
	limiter := workqueue.NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, 1000*time.Second)
	q := workqueue.NewTypedRateLimitingQueueWithConfig(limiter, workqueue.TypedRateLimitingQueueConfig[string]{Clock: clock})
	return &session{clock: clock, q: q}
}

func (s *session) waitGet() {
	key, shutdown := s.q.Get()
	if shutdown {
		key = "!shutdown"
	}
	s.mu.Lock()
	s.gotGetter = append(s.gotGetter, key)
	s.mu.Unlock()
}

func (s *session) waitDrain() {
	s.q.ShutDownWithDrain()
	s.mu.Lock()
	s.gotDrain++
	s.mu.Unlock()
}

// parkedOn lists the states of a goroutine that only another goroutine's action can end: the
// queue's condition variable and the delaying loop's select. Any other state counts as busy: running,
// runnable, waiting for a mutex, and states the runtime ends by itself ("GC assist wait",
// "preempted"): a list of busy states let those pass for parked, so a getter paused in a GC assist
// could hand over its key one operation late.
var parkedOn = []string{"sync.Cond.Wait", "select", "chan receive", "chan send"}

// quiet reports whether every goroutine but the caller is parked (see parkedOn); with noLoop, also
// that the delaying queue's loop has ended.
func quiet(dump string, noLoop bool) bool {
	for i, block := range strings.Split(dump, "\n\n") {
		if i == 0 {
			continue // the caller's own goroutine comes first
		}
		header, _, _ := strings.Cut(block, "\n")
		status := ""
		if open := strings.Index(header, "["); open >= 0 {
			// "[select, 2 minutes]" or "[sync.Cond.Wait]:": the state is what comes before "," or "]".
			status, _, _ = strings.Cut(header[open+1:], "]")
			status, _, _ = strings.Cut(status, ",")
		}
		parked := false
		for _, state := range parkedOn {
			parked = parked || status == state
		}
		if !parked {
			return false
		}
		if noLoop && strings.Contains(block, "k8s.io/client-go/util/workqueue.") {
			return false
		}
	}
	return true
}

func settle(noLoop bool) {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n == len(buf) {
			buf = make([]byte, 2*len(buf))
			continue
		}
		if os.Getenv("WQDIFF_DEBUG") != "" {
			fmt.Fprintln(os.Stderr, string(buf[:n]))
		}
		if quiet(string(buf[:n]), noLoop) {
			return
		}
		runtime.Gosched()
	}
}

func (s *session) apply(o op) any {
	switch o.Op {
	case "add":
		s.q.Add(o.Key)
	case "addAfter":
		s.q.AddAfter(o.Key, time.Duration(o.Ms)*time.Millisecond)
	case "addRateLimited":
		s.q.AddRateLimited(o.Key)
	case "forget":
		s.q.Forget(o.Key)
	case "numRequeues":
		return s.q.NumRequeues(o.Key)
	case "get":
		if s.q.Len() == 0 && !s.q.ShuttingDown() {
			return "!empty"
		}
		key, shutdown := s.q.Get()
		if shutdown {
			return "!shutdown"
		}
		s.held = append(s.held, key)
		return key
	case "getWait":
		if s.getters >= maxWaiters {
			return "!skipped"
		}
		s.getters++
		go s.waitGet()
	case "done":
		if len(s.held) == 0 {
			return "!skipped"
		}
		i := o.Slot % len(s.held)
		key := s.held[i]
		s.held = append(s.held[:i], s.held[i+1:]...)
		s.q.Done(key)
		return key
	case "shutDown":
		if s.shutDownCalled && s.drains > 0 {
			return "!skipped"
		}
		s.shutDownCalled = true
		s.q.ShutDown()
	case "shutDownWithDrain":
		if s.drains > 0 {
			return "!skipped"
		}
		s.drains++
		go s.waitDrain()
	case "step":
		s.clock.Step(time.Duration(o.Ms) * time.Millisecond)
	default:
		panic(fmt.Sprintf("unknown operation %q", o.Op))
	}
	return nil
}

func (s *session) collect(r *result) {
	s.mu.Lock()
	got := s.gotGetter
	r.D = s.gotDrain
	s.gotGetter, s.gotDrain = nil, 0
	s.mu.Unlock()
	sort.Strings(got)
	r.G = []string{}
	for _, key := range got {
		r.G = append(r.G, key)
		if key != "!shutdown" {
			s.held = append(s.held, key)
		}
	}
	s.getters -= len(got)
	s.drains -= r.D
	r.Len = s.q.Len()
	r.SD = s.q.ShuttingDown()
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	var s *session
	for in.Scan() {
		var o op
		if err := json.Unmarshal(in.Bytes(), &o); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		var r result
		switch o.Op {
		case "begin":
			s = newSession()
			settle(false)
		case "end":
			// Finish every held key first: that releases a pending drain in both queues.
			for _, key := range s.held {
				s.q.Done(key)
			}
			s.held = nil
			settle(false)
			s.q.ShutDown()
			settle(true)
		default:
			r.R = s.apply(o)
			settle(false)
		}
		s.collect(&r)
		if err := enc.Encode(r); err != nil {
			os.Exit(2)
		}
	}
}
