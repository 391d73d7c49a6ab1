// The controller-runtime side of scripts/bench/controller-vs-runtime.ts: a controller-runtime
// manager caching the Widget custom resources of one namespace and, for each, merge-patching
// status.observedGeneration to the object's generation, as the kubesdk side does. Widget is a typed
// Go struct (how controller-runtime users write controllers), with the manager's default options
// (no cache transform). Once every object has been reconciled it prints one JSON line (time from
// manager start, peak RSS from /proc/self/status VmHWM) and exits.
//
// Usage: controller-runtime-bench <kubeconfig> <namespace> <objects> <concurrency>
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

var widgetGV = schema.GroupVersion{Group: "bench.kubesdk.io", Version: "v1"}

type WidgetSpec struct {
	Size int64 `json:"size"`
}

type WidgetStatus struct {
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpec   `json:"spec,omitempty"`
	Status            WidgetStatus `json:"status,omitempty"`
}

func (w *Widget) DeepCopyObject() runtime.Object {
	c := *w
	w.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	return &c
}

type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

func (l *WidgetList) DeepCopyObject() runtime.Object {
	c := *l
	l.ListMeta.DeepCopyInto(&c.ListMeta)
	c.Items = make([]Widget, len(l.Items))
	for i := range l.Items {
		c.Items[i] = *l.Items[i].DeepCopyObject().(*Widget)
	}
	return &c
}

type reconciler struct {
	client client.Client
	mu     sync.Mutex
	done   map[string]struct{}
	want   int
	all    chan struct{}
}

func (r *reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w Widget
	if err := r.client.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	body := fmt.Sprintf(`{"status":{"observedGeneration":%d}}`, w.Generation)
	if err := r.client.Status().Patch(ctx, &w, client.RawPatch(types.MergePatchType, []byte(body))); err != nil {
		return ctrl.Result{}, err
	}
	r.mu.Lock()
	r.done[req.String()] = struct{}{}
	if len(r.done) == r.want {
		close(r.all)
	}
	r.mu.Unlock()
	return ctrl.Result{}, nil
}

func peakRSSMiB() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return -1
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if fields := strings.Fields(s.Text()); len(fields) >= 2 && fields[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(fields[1], 64)
			return kb / 1024
		}
	}
	return -1
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: controller-runtime-bench <kubeconfig> <namespace> <objects> <concurrency>")
		os.Exit(2)
	}
	namespace := os.Args[2]
	want, err := strconv.Atoi(os.Args[3])
	must(err)
	concurrency, err := strconv.Atoi(os.Args[4])
	must(err)
	ctrl.SetLogger(logr.Discard())
	start := time.Now()
	cfg, err := clientcmd.BuildConfigFromFlags("", os.Args[1])
	must(err)
	// Client-side throttling off on both sides (kubesdk has none): the server sets the pace.
	cfg.QPS = -1
	scheme := runtime.NewScheme()
	scheme.AddKnownTypes(widgetGV, &Widget{}, &WidgetList{})
	metav1.AddToGroupVersion(scheme, widgetGV)
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Cache:                  cache.Options{DefaultNamespaces: map[string]cache.Config{namespace: {}}},
	})
	must(err)
	r := &reconciler{client: mgr.GetClient(), done: map[string]struct{}{}, want: want, all: make(chan struct{})}
	must(builder.ControllerManagedBy(mgr).
		For(&Widget{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		WithOptions(controller.Options{MaxConcurrentReconciles: concurrency}).
		Complete(r))
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-r.all
		out, _ := json.Marshal(map[string]float64{
			"ms":         float64(time.Since(start).Microseconds()) / 1000,
			"peakRssMiB": peakRSSMiB(),
		})
		fmt.Println(string(out))
		cancel()
	}()
	must(mgr.Start(ctx))
}
