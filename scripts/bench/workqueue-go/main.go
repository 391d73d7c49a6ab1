// Work queue throughput of client-go's workqueue, for scripts/bench/controller-bench.ts to compare
// with @kubesdk/controller's WorkQueue. Runs the same three workloads and prints one JSON line:
//
//	distinct:   add N distinct keys, then get+done each (one worker)
//	duplicates: add N keys drawn from 1000 (most adds collapse), then drain
//	rateLimited: for N/10 keys, addRateLimited + forget with a per-key exponential limiter (5 ms
//	            base; the overall 10 qps bucket is left out, it would make this a 10 qps test),
//	            then drain as they come due
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"

	"k8s.io/client-go/util/workqueue"
)

func opsPerSecond(ops int, d time.Duration) float64 { return float64(ops) / d.Seconds() }

func distinct(n int) float64 {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "ns/obj-" + strconv.Itoa(i)
	}
	q := workqueue.NewTyped[string]()
	start := time.Now()
	for _, k := range keys {
		q.Add(k)
	}
	for i := 0; i < n; i++ {
		k, _ := q.Get()
		q.Done(k)
	}
	d := time.Since(start)
	q.ShutDown()
	return opsPerSecond(3*n, d)
}

func duplicates(n int) float64 {
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = "ns/obj-" + strconv.Itoa(i)
	}
	q := workqueue.NewTyped[string]()
	start := time.Now()
	for i := 0; i < n; i++ {
		q.Add(keys[(i*7919)%len(keys)])
	}
	got := 0
	for q.Len() > 0 {
		k, _ := q.Get()
		q.Done(k)
		got++
	}
	d := time.Since(start)
	q.ShutDown()
	return opsPerSecond(n+2*got, d)
}

func rateLimited(n int) float64 {
	q := workqueue.NewTypedRateLimitingQueue[string](workqueue.NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, 1000*time.Second))
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "ns/obj-" + strconv.Itoa(i)
	}
	start := time.Now()
	for _, k := range keys {
		q.AddRateLimited(k)
		q.Forget(k)
	}
	for i := 0; i < n; i++ {
		k, _ := q.Get()
		q.Done(k)
	}
	d := time.Since(start)
	q.ShutDown()
	return opsPerSecond(4*n, d)
}

func main() {
	n := 200000
	if len(os.Args) > 1 {
		if v, err := strconv.Atoi(os.Args[1]); err == nil {
			n = v
		}
	}
	out := map[string]float64{
		"distinct":    distinct(n),
		"duplicates":  duplicates(n),
		"rateLimited": rateLimited(n / 10),
	}
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
}
