// Command client-go-check drives an API server with client-go: typed CRUD including DELETE,
// an informer whose cache must equal the server's list, a server-side apply conflict and its
// forced resolution, dynamic paging and the metadata client. Usage:
//
//	client-go-check -kubeconfig PATH -protobuf=true|false
//
// WatchListClient is switched with KUBE_FEATURE_WatchListClient=true|false. Prints one line per
// check and exits 1 on the first failure.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

var configMaps = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

func must(what string, err error) {
	if err != nil {
		fmt.Printf("FAIL %s: %v\n", what, err)
		os.Exit(1)
	}
	fmt.Printf("ok   %s\n", what)
}

func check(what string, ok bool, detail string) {
	if !ok {
		must(what, fmt.Errorf("%s", detail))
	}
	must(what, nil)
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig path")
	protobuf := flag.Bool("protobuf", false, "talk protobuf to built-in resources")
	flag.Parse()
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	must("load kubeconfig", err)
	if *protobuf {
		cfg.ContentType = "application/vnd.kubernetes.protobuf"
		cfg.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	kube := kubernetes.NewForConfigOrDie(cfg)
	ns := fmt.Sprintf("client-go-%d", time.Now().UnixNano())
	_, err = kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
	must("create namespace", err)
	defer kube.CoreV1().Namespaces().Delete(context.Background(), ns, metav1.DeleteOptions{})
	typedCrud(ctx, kube, ns)
	informerCache(ctx, kube, ns)
	applyConflict(ctx, kube, ns)
	paging(ctx, cfg, ns)
}

func typedCrud(ctx context.Context, kube kubernetes.Interface, ns string) {
	cms := kube.CoreV1().ConfigMaps(ns)
	cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "crud"}, Data: map[string]string{"a": "1"}}, metav1.CreateOptions{})
	must("typed create", err)
	cm.Data["b"] = "2"
	cm, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
	must("typed update", err)
	_, err = cms.Patch(ctx, "crud", types.StrategicMergePatchType, []byte(`{"data":{"c":"3"}}`), metav1.PatchOptions{})
	must("typed strategic merge patch", err)
	got, err := cms.Get(ctx, "crud", metav1.GetOptions{})
	must("typed get", err)
	check("typed get sees all writes", len(got.Data) == 3, fmt.Sprintf("data %v", got.Data))
	policy := metav1.DeletePropagationBackground
	must("typed delete with options", cms.Delete(ctx, "crud", metav1.DeleteOptions{PropagationPolicy: &policy, Preconditions: &metav1.Preconditions{UID: &cm.UID}}))
	_, err = cms.Get(ctx, "crud", metav1.GetOptions{})
	check("deleted object is NotFound", apierrors.IsNotFound(err), fmt.Sprintf("err %v", err))
	for i := 0; i < 3; i++ {
		_, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("coll-%d", i), Labels: map[string]string{"coll": "yes"}}}, metav1.CreateOptions{})
		must(fmt.Sprintf("create coll-%d", i), err)
	}
	must("delete collection", cms.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "coll=yes"}))
}

func informerCache(ctx context.Context, kube kubernetes.Interface, ns string) {
	for i := 0; i < 5; i++ {
		_, err := kube.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("inf-%d", i)}}, metav1.CreateOptions{})
		must(fmt.Sprintf("create inf-%d", i), err)
	}
	factory := informers.NewSharedInformerFactoryWithOptions(kube, 0, informers.WithNamespace(ns))
	inf := factory.Core().V1().ConfigMaps().Informer()
	stop := make(chan struct{})
	defer close(stop)
	factory.Start(stop)
	check("informer synced", cache.WaitForCacheSync(ctx.Done(), inf.HasSynced), "never synced")
	must("delete inf-0 while watching", kube.CoreV1().ConfigMaps(ns).Delete(ctx, "inf-0", metav1.DeleteOptions{}))
	_, err := kube.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "inf-new"}}, metav1.CreateOptions{})
	must("create inf-new while watching", err)
	list, err := kube.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
	must("list for comparison", err)
	want := map[string]string{}
	for _, cm := range list.Items {
		want[cm.Name] = cm.ResourceVersion
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		have := map[string]string{}
		for _, o := range inf.GetStore().List() {
			cm := o.(*corev1.ConfigMap)
			have[cm.Name] = cm.ResourceVersion
		}
		if fmt.Sprint(have) == fmt.Sprint(want) {
			must("informer cache equals the server's list", nil)
			return
		}
		if time.Now().After(deadline) {
			must("informer cache equals the server's list", fmt.Errorf("cache %v, server %v", have, want))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func applyConflict(ctx context.Context, kube kubernetes.Interface, ns string) {
	body := func(v string) []byte {
		return []byte(fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ssa"},"data":{"k":%q}}`, v))
	}
	cms := kube.CoreV1().ConfigMaps(ns)
	_, err := cms.Patch(ctx, "ssa", types.ApplyPatchType, body("one"), metav1.PatchOptions{FieldManager: "first"})
	must("apply as first", err)
	_, err = cms.Patch(ctx, "ssa", types.ApplyPatchType, body("two"), metav1.PatchOptions{FieldManager: "second"})
	check("apply as second conflicts", apierrors.IsConflict(err), fmt.Sprintf("err %v", err))
	force := true
	got, err := cms.Patch(ctx, "ssa", types.ApplyPatchType, body("two"), metav1.PatchOptions{FieldManager: "second", Force: &force})
	must("forced apply", err)
	check("forced apply took the field", got.Data["k"] == "two", fmt.Sprintf("data %v", got.Data))
}

func paging(ctx context.Context, cfg *rest.Config, ns string) {
	dyn := dynamic.NewForConfigOrDie(cfg)
	names := []string{}
	opts := metav1.ListOptions{Limit: 2}
	for {
		page, err := dyn.Resource(configMaps).Namespace(ns).List(ctx, opts)
		must("dynamic list page", err)
		for _, item := range page.Items {
			names = append(names, item.GetName())
		}
		if page.GetContinue() == "" {
			break
		}
		opts.Continue = page.GetContinue()
	}
	meta := metadata.NewForConfigOrDie(cfg)
	ml, err := meta.Resource(configMaps).Namespace(ns).List(ctx, metav1.ListOptions{})
	must("metadata list", err)
	metaNames := []string{}
	for _, item := range ml.Items {
		metaNames = append(metaNames, item.Name)
	}
	sort.Strings(names)
	sort.Strings(metaNames)
	check("paged and metadata lists agree", fmt.Sprint(names) == fmt.Sprint(metaNames), fmt.Sprintf("%v vs %v", names, metaNames))
	one, err := meta.Resource(configMaps).Namespace(ns).Get(ctx, "ssa", metav1.GetOptions{})
	must("metadata get", err)
	// The forced apply took the only field "first" managed, so "second" is left alone.
	check("metadata get has the forced manager only", len(one.ManagedFields) == 1 && one.ManagedFields[0].Manager == "second", fmt.Sprintf("%v", one.ManagedFields))
}
