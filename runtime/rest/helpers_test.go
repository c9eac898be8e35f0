package rest

import (
	"net/http/httptest"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	testingclock "k8s.io/utils/clock/testing"
)

var (
	testScheme         = runtime.NewScheme()
	testCodecs         = serializer.NewCodecFactory(testScheme)
	testParameterCodec = runtime.NewParameterCodec(testScheme)
)

func init() {
	if err := corev1.AddToScheme(testScheme); err != nil {
		panic(err)
	}
	metav1.AddToGroupVersion(testScheme, schema.GroupVersion{Version: "v1"})
}

// coreConfig returns a Config for the core/v1 API of srv without rate limiting.
func coreConfig(srv *httptest.Server) *Config {
	return &Config{
		Host:    srv.URL,
		APIPath: "/api",
		ContentConfig: ContentConfig{
			GroupVersion:         &corev1.SchemeGroupVersion,
			NegotiatedSerializer: testCodecs.WithoutConversion(),
		},
		QPS: -1,
	}
}

func coreClient(t *testing.T, srv *httptest.Server, mutate ...func(*Config)) *RESTClient {
	t.Helper()
	cfg := coreConfig(srv)
	for _, m := range mutate {
		m(cfg)
	}
	c, err := RESTClientFor(cfg)
	if err != nil {
		t.Fatalf("RESTClientFor: %v", err)
	}
	return c
}

func encodeJSON(t *testing.T, obj runtime.Object) []byte {
	t.Helper()
	info, _ := runtime.SerializerInfoForMediaType(testCodecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	data, err := runtime.Encode(testCodecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion), obj)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func schemaGV(group, version string) schema.GroupVersion {
	return schema.GroupVersion{Group: group, Version: version}
}

// waitForTimer waits until something waits on clk.
func waitForTimer(t *testing.T, clk *testingclock.FakeClock) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !clk.HasWaiters() {
		if time.Now().After(deadline) {
			t.Fatal("nothing waits on the clock")
		}
		time.Sleep(time.Millisecond)
	}
}
