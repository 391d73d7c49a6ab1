// The fixed vectors (`go-wire vectors`, written to vectors.json): objects and watch frames encoded by the upstream Go
// code of the pinned release (JSON with encoding/json as the apiserver does, protobuf with the
// apimachinery protobuf serializer), shaped like real traffic rather than the fully-populated
// k8s.io/api fixtures: kubectl-style sparse objects, zero values, lists, Status, a CRD, watch
// frames, and (exact.go) crafted edge cases with what Go makes of them. Regenerate from this
// directory with:
//
//	GOFLAGS=-mod=mod go run . vectors > vectors.json && pnpm exec biome format --write vectors.json
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/util/intstr"

	apiregv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
	"time"
)

type vector struct {
	Name string          `json:"name"`
	JSON json.RawMessage `json:"json"`
	PB   string          `json:"pb"`
}

type frame struct {
	Name  string          `json:"name"`
	Type  string          `json:"type"`
	JSON  json.RawMessage `json:"object"`
	Frame string          `json:"frame"`
}

// Encoding needs neither a creater nor a typer: the envelope takes apiVersion/kind from TypeMeta.
var ser = protobuf.NewSerializer(runtime.NewScheme(), runtime.NewScheme())

func pb(obj runtime.Object) []byte {
	var buf bytes.Buffer
	if err := ser.Encode(obj, &buf); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func js(obj any) json.RawMessage {
	b, err := json.Marshal(obj)
	if err != nil {
		panic(err)
	}
	return b
}

func ptr[T any](v T) *T { return &v }

func tm(kind, apiVersion string) metav1.TypeMeta {
	return metav1.TypeMeta{Kind: kind, APIVersion: apiVersion}
}

func writeVectors() {
	created := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	labels := map[string]string{"app": "web", "10": "numeric-looking key", "2": "another"}
	pod := &corev1.Pod{
		TypeMeta:   tm("Pod", "v1"),
		ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "default", UID: "0b8b2b4e", ResourceVersion: "42", CreationTimestamp: created, Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name: "web", Image: "nginx:1.27", Ports: []corev1.ContainerPort{{ContainerPort: 80, Protocol: "TCP"}},
				Resources:                corev1.ResourceRequirements{Limits: corev1.ResourceList{"cpu": resource.MustParse("500m"), "memory": resource.MustParse("128Mi")}},
				TerminationMessagePath:   "/dev/termination-log",
				TerminationMessagePolicy: "File",
				ImagePullPolicy:          "IfNotPresent",
				Env:                      []corev1.EnvVar{{Name: "FROM_CM", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "cfg"}, Key: "k"}}}},
				ReadinessProbe:           &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/", Port: intstr.FromString("http")}}, PeriodSeconds: 10},
			}},
			Volumes:                       []corev1.Volume{{Name: "cfg", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cfg"}, DefaultMode: ptr(int32(420))}}}},
			RestartPolicy:                 "Always",
			TerminationGracePeriodSeconds: ptr(int64(30)),
			DNSPolicy:                     "ClusterFirst",
			SchedulerName:                 "default-scheduler",
			SecurityContext:               &corev1.PodSecurityContext{},
		},
		Status: corev1.PodStatus{
			Phase:      "Running",
			Conditions: []corev1.PodCondition{{Type: "Ready", Status: "True", LastTransitionTime: created}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "web", Ready: true, RestartCount: 0, Image: "nginx:1.27", ImageID: "", ContainerID: "containerd://abc",
				State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: created}}}},
			QOSClass: "Burstable",
			PodIP:    "10.0.0.7",
		},
	}
	objects := []struct {
		name string
		obj  runtime.Object
	}{
		{"kubectl-create-namespace", &corev1.Namespace{TypeMeta: tm("Namespace", "v1"), ObjectMeta: metav1.ObjectMeta{Name: "demo"}}},
		{"kubectl-create-configmap", &corev1.ConfigMap{TypeMeta: tm("ConfigMap", "v1"), ObjectMeta: metav1.ObjectMeta{Name: "cfg", Namespace: "demo"}, Data: map[string]string{"b": "2", "a": "1"}}},
		{"kubectl-create-secret", &corev1.Secret{TypeMeta: tm("Secret", "v1"), ObjectMeta: metav1.ObjectMeta{Name: "s", Namespace: "demo"}, Data: map[string][]byte{"token": []byte("s3cr3t\x00\xff")}, Type: "Opaque"}},
		{"kubectl-create-deployment", &appsv1.Deployment{TypeMeta: tm("Deployment", "apps/v1"), ObjectMeta: metav1.ObjectMeta{Name: "nginx", Labels: map[string]string{"app": "nginx"}},
			Spec: appsv1.DeploymentSpec{Replicas: ptr(int32(1)), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
				Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "nginx"}}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx"}}}}}}},
		{"deployment-scaled-to-zero", &appsv1.Deployment{TypeMeta: tm("Deployment", "apps/v1"), ObjectMeta: metav1.ObjectMeta{Name: "idle"}, Spec: appsv1.DeploymentSpec{Replicas: ptr(int32(0)), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "idle"}}}}},
		{"pod-running", pod},
		{"pod-labels-numeric-keys", &corev1.Pod{TypeMeta: tm("Pod", "v1"), ObjectMeta: metav1.ObjectMeta{Name: "p", Labels: labels}}},
		{"service-targetport", &corev1.Service{TypeMeta: tm("Service", "v1"), ObjectMeta: metav1.ObjectMeta{Name: "svc"},
			Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromInt32(8080)}, {Name: "named", Port: 81, TargetPort: intstr.FromString("web")}}, Type: "ClusterIP", ClusterIP: "10.96.0.10", ClusterIPs: []string{"10.96.0.10"}}}},
		{"configmap-list", &corev1.ConfigMapList{TypeMeta: tm("ConfigMapList", "v1"), ListMeta: metav1.ListMeta{ResourceVersion: "100", Continue: "abc"},
			Items: []corev1.ConfigMap{{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "n", CreationTimestamp: created}, Data: map[string]string{"x": "1"}}, {ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "n", CreationTimestamp: created}}}}},
		{"pod-list-empty", &corev1.PodList{TypeMeta: tm("PodList", "v1"), ListMeta: metav1.ListMeta{ResourceVersion: "7"}, Items: []corev1.Pod{}}},
		{"status-not-found", &metav1.Status{TypeMeta: tm("Status", "v1"), Status: "Failure", Message: `configmaps "nope" not found`, Reason: "NotFound", Details: &metav1.StatusDetails{Name: "nope", Kind: "configmaps"}, Code: 404}},
		{"event-microtime", &eventsv1.Event{TypeMeta: tm("Event", "events.k8s.io/v1"), ObjectMeta: metav1.ObjectMeta{Name: "e", Namespace: "n", CreationTimestamp: created},
			EventTime: metav1.NewMicroTime(time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC)), ReportingController: "c", ReportingInstance: "i", Action: "A", Reason: "R", Type: "Normal", Regarding: corev1.ObjectReference{Kind: "Pod", Name: "p"}}},
		{"apiservice", &apiregv1.APIService{TypeMeta: tm("APIService", "apiregistration.k8s.io/v1"), ObjectMeta: metav1.ObjectMeta{Name: "v1beta1.metrics.k8s.io"},
			Spec:   apiregv1.APIServiceSpec{Service: &apiregv1.ServiceReference{Namespace: "kube-system", Name: "metrics-server", Port: ptr(int32(443))}, Group: "metrics.k8s.io", Version: "v1beta1", InsecureSkipTLSVerify: true, GroupPriorityMinimum: 100, VersionPriority: 100},
			Status: apiregv1.APIServiceStatus{Conditions: []apiregv1.APIServiceCondition{{Type: "Available", Status: "True", LastTransitionTime: created, Reason: "Passed", Message: "all checks passed"}}}}},
		{"crd", crd(created)},
		// Pointer fields set to their zero value: written in both forms, unlike non-pointer zeros.
		{"kubectl-create-deployment-replicas-0", &appsv1.Deployment{TypeMeta: tm("Deployment", "apps/v1"), ObjectMeta: metav1.ObjectMeta{Name: "paused", Labels: map[string]string{"app": "paused"}},
			Spec: appsv1.DeploymentSpec{Replicas: ptr(int32(0)), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "paused"}},
				Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "paused"}}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx"}}}}}}},
		{"pod-run-as-root", &corev1.Pod{TypeMeta: tm("Pod", "v1"), ObjectMeta: metav1.ObjectMeta{Name: "root", Namespace: "demo"},
			Spec: corev1.PodSpec{
				AutomountServiceAccountToken: ptr(false),
				SecurityContext:              &corev1.PodSecurityContext{RunAsUser: ptr(int64(0)), RunAsGroup: ptr(int64(0)), RunAsNonRoot: ptr(false), FSGroup: ptr(int64(0))},
				Containers: []corev1.Container{{Name: "c", Image: "busybox",
					SecurityContext: &corev1.SecurityContext{RunAsUser: ptr(int64(0)), Privileged: ptr(false), AllowPrivilegeEscalation: ptr(false), ReadOnlyRootFilesystem: ptr(false)}}},
				TerminationGracePeriodSeconds: ptr(int64(0)),
			}}},
		{"serviceaccount-no-automount", &corev1.ServiceAccount{TypeMeta: tm("ServiceAccount", "v1"), ObjectMeta: metav1.ObjectMeta{Name: "quiet", Namespace: "demo"}, AutomountServiceAccountToken: ptr(false)}},
		{"job-zero-pointers", &batchv1.Job{TypeMeta: tm("Job", "batch/v1"), ObjectMeta: metav1.ObjectMeta{Name: "once", Namespace: "demo"},
			Spec: batchv1.JobSpec{Parallelism: ptr(int32(0)), BackoffLimit: ptr(int32(0)), Suspend: ptr(false), ActiveDeadlineSeconds: ptr(int64(0)),
				Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{RestartPolicy: "Never", Containers: []corev1.Container{{Name: "c", Image: "busybox", Command: []string{}}}}}}}},
	}
	var vectors []vector
	for _, o := range objects {
		vectors = append(vectors, vector{Name: o.name, JSON: js(o.obj), PB: base64.StdEncoding.EncodeToString(pb(o.obj))})
	}
	bookmark := &corev1.Pod{TypeMeta: tm("Pod", "v1"), ObjectMeta: metav1.ObjectMeta{ResourceVersion: "99", Annotations: map[string]string{"k8s.io/initial-events-end": "true"}}}
	gone := &metav1.Status{TypeMeta: tm("Status", "v1"), Status: "Failure", Message: "too old resource version: 1 (99)", Reason: "Expired", Code: 410}
	var frames []frame
	for _, f := range []struct {
		name, typ string
		obj       runtime.Object
	}{{"added-pod", "ADDED", pod}, {"bookmark", "BOOKMARK", bookmark}, {"error-410", "ERROR", gone}} {
		ev := metav1.WatchEvent{Type: f.typ, Object: runtime.RawExtension{Raw: pb(f.obj)}}
		b, err := ev.Marshal()
		if err != nil {
			panic(err)
		}
		frames = append(frames, frame{Name: f.name, Type: f.typ, JSON: js(f.obj), Frame: base64.StdEncoding.EncodeToString(b)})
	}
	pbCases, jsonCases := exactCases()
	out, _ := json.MarshalIndent(map[string]any{"objects": vectors, "watchFrames": frames, "pbCases": pbCases, "jsonCases": jsonCases}, "", " ")
	os.Stdout.Write(out)
}

func crd(created metav1.Time) *apiextv1.CustomResourceDefinition {
	str := apiextv1.JSONSchemaProps{Type: "string"}
	schema := apiextv1.JSONSchemaProps{
		Type: "object",
		Properties: map[string]apiextv1.JSONSchemaProps{
			"spec": {
				Type: "object", Required: []string{"mode"},
				XValidations: apiextv1.ValidationRules{{Rule: "self.replicas >= 0", Message: "non-negative"}},
				Properties: map[string]apiextv1.JSONSchemaProps{
					"replicas": {Type: "integer", Format: "int32", Default: &apiextv1.JSON{Raw: []byte(`1`)}, Minimum: ptr(0.0), Maximum: ptr(1.5)},
					"mode":     {Type: "string", Enum: []apiextv1.JSON{{Raw: []byte(`"a"`)}, {Raw: []byte(`"b"`)}}, Description: "how"},
					"tags":     {Type: "array", Items: &apiextv1.JSONSchemaPropsOrArray{Schema: &str}, XListType: ptr("set")},
					"tuple":    {Type: "array", Items: &apiextv1.JSONSchemaPropsOrArray{JSONSchemas: []apiextv1.JSONSchemaProps{str, {Type: "integer"}}}},
					"extra":    {Type: "object", AdditionalProperties: &apiextv1.JSONSchemaPropsOrBool{Allows: true, Schema: &str}},
					"closed":   {Type: "object", AdditionalProperties: &apiextv1.JSONSchemaPropsOrBool{Allows: false}},
					"port":     {XIntOrString: true, AnyOf: []apiextv1.JSONSchemaProps{{Type: "integer"}, {Type: "string"}}},
					"free":     {Type: "object", XPreserveUnknownFields: ptr(true), XEmbeddedResource: true},
					"byKey":    {Type: "array", XListType: ptr("map"), XListMapKeys: []string{"name"}, XMapType: ptr("granular"), Items: &apiextv1.JSONSchemaPropsOrArray{Schema: &apiextv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{"name": str}}}},
					"dep":      {Type: "object", Dependencies: apiextv1.JSONSchemaDependencies{"a": {Property: []string{"b"}}, "c": {Schema: &apiextv1.JSONSchemaProps{Required: []string{"d"}}}}},
					"ref":      {Ref: ptr("#/definitions/x"), Schema: "http://json-schema.org/draft-04/schema#"},
				},
			},
		},
	}
	return &apiextv1.CustomResourceDefinition{
		TypeMeta:   tm("CustomResourceDefinition", "apiextensions.k8s.io/v1"),
		ObjectMeta: metav1.ObjectMeta{Name: "widgets.example.com", CreationTimestamp: created},
		Spec: apiextv1.CustomResourceDefinitionSpec{
			Group: "example.com", Scope: "Namespaced",
			Names: apiextv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList", ShortNames: []string{"wd"}},
			Versions: []apiextv1.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true, Schema: &apiextv1.CustomResourceValidation{OpenAPIV3Schema: &schema},
				Subresources:             &apiextv1.CustomResourceSubresources{Status: &apiextv1.CustomResourceSubresourceStatus{}},
				AdditionalPrinterColumns: []apiextv1.CustomResourceColumnDefinition{{Name: "Mode", Type: "string", JSONPath: ".spec.mode"}}}},
		},
		Status: apiextv1.CustomResourceDefinitionStatus{AcceptedNames: apiextv1.CustomResourceDefinitionNames{Plural: "widgets", Kind: "Widget"}, StoredVersions: []string{"v1"},
			Conditions: []apiextv1.CustomResourceDefinitionCondition{{Type: "Established", Status: "True", LastTransitionTime: created, Reason: "InitialNamesAccepted", Message: "the initial names have been accepted"}}},
	}
}
