// A client-go leader-election candidate for the cross-process leader suite
// (test/controller/leader-processes.test.ts): it campaigns for a Lease with client-go's
// tools/leaderelection and, while leading, "reconciles" (GETs a ConfigMap) in a loop. Every
// reconcile is appended to a shared log as "<identity> <start> <end>" in CLOCK_MONOTONIC
// nanoseconds, the clock Node's process.hrtime.bigint() reads, so intervals compare across processes.
// Lifecycle lines: "<identity> leading <t>", "<identity> stopped <t>". The lock is wrapped to trace
// the elector's protocol in the same form as the kubesdk candidate: "<identity> round <t>" when a
// round reads the Lease, "<identity> observed <t> <holder|-> <leaseDurationSeconds>" when the record
// read differs from the one read before (client-go's rule for restarting its observed time),
// "<identity> write <t>" when it sends a write. SIGTERM cancels the context: client-go releases the
// Lease (ReleaseOnCancel) and the program exits.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

func monotonic() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		panic(err)
	}
	return ts.Nano()
}

// appendLine writes one line with one write(2) on an O_APPEND file, so lines of several processes
// never interleave.
func appendLine(path, line string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line + "\n"); err != nil {
		panic(err)
	}
}

// tracedLock is the Lease lock with every read and write traced to the shared log.
type tracedLock struct {
	resourcelock.Interface
	log      func(string)
	previous []byte
}

func (l *tracedLock) Get(ctx context.Context) (*resourcelock.LeaderElectionRecord, []byte, error) {
	l.log(fmt.Sprintf("round %d", monotonic()))
	record, raw, err := l.Interface.Get(ctx)
	if err == nil && !bytes.Equal(raw, l.previous) {
		l.previous = raw
		holder := record.HolderIdentity
		if holder == "" {
			holder = "-"
		}
		l.log(fmt.Sprintf("observed %d %s %d", monotonic(), holder, record.LeaseDurationSeconds))
	}
	return record, raw, err
}

func (l *tracedLock) Create(ctx context.Context, ler resourcelock.LeaderElectionRecord) error {
	l.log(fmt.Sprintf("write %d", monotonic()))
	return l.Interface.Create(ctx, ler)
}

func (l *tracedLock) Update(ctx context.Context, ler resourcelock.LeaderElectionRecord) error {
	l.log(fmt.Sprintf("write %d", monotonic()))
	return l.Interface.Update(ctx, ler)
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig path")
	namespace := flag.String("namespace", "", "namespace of the Lease and the ConfigMaps")
	lease := flag.String("lease", "", "Lease name")
	identity := flag.String("identity", "", "candidate identity")
	logPath := flag.String("log", "", "shared log")
	leaseMs := flag.Int("lease-ms", 3000, "lease duration")
	renewMs := flag.Int("renew-ms", 2000, "renew deadline")
	retryMs := flag.Int("retry-ms", 500, "retry period")
	flag.Parse()

	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		panic(err)
	}
	client := kubernetes.NewForConfigOrDie(config)
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer cancel()

	lock := &tracedLock{
		Interface: &resourcelock.LeaseLock{
			LeaseMeta:  metav1.ObjectMeta{Name: *lease, Namespace: *namespace},
			Client:     client.CoordinationV1(),
			LockConfig: resourcelock.ResourceLockConfig{Identity: *identity},
		},
		log: func(line string) { appendLine(*logPath, *identity+" "+line) },
	}
	reconcile := func(ctx context.Context) {
		for ctx.Err() == nil {
			start := monotonic()
			_, _ = client.CoreV1().ConfigMaps(*namespace).Get(ctx, "cm-0", metav1.GetOptions{})
			if ctx.Err() != nil {
				return
			}
			appendLine(*logPath, fmt.Sprintf("%s %d %d", *identity, start, monotonic()))
			time.Sleep(10 * time.Millisecond)
		}
	}
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:            lock,
		LeaseDuration:   time.Duration(*leaseMs) * time.Millisecond,
		RenewDeadline:   time.Duration(*renewMs) * time.Millisecond,
		RetryPeriod:     time.Duration(*retryMs) * time.Millisecond,
		ReleaseOnCancel: true,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				appendLine(*logPath, fmt.Sprintf("%s leading %d", *identity, monotonic()))
				reconcile(ctx)
			},
			OnStoppedLeading: func() {
				appendLine(*logPath, fmt.Sprintf("%s stopped %d", *identity, monotonic()))
			},
		},
	})
}
