package v1

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kgen-dev/kgen/testdata/apis/shapes/common"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Shape is a top-level object.
type Shape struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec ShapeSpec `json:"spec"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ShapeList is a list of Shapes.
type ShapeList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Shape `json:"items"`
}

// ShapeSpec has a field of every shape.
type ShapeSpec struct {
	// Values.
	Name  string  `json:"name"`
	Count int32   `json:"count"`
	Ratio float64 `json:"ratio"`
	Flag  bool    `json:"flag"`
	Data  []byte  `json:"data"`
	Phase Phase   `json:"phase"`
	Level Level   `json:"level"`

	// Pointers.
	IntPtr     *int64          `json:"intPtr"`
	PhasePtr   *Phase          `json:"phasePtr"`
	InnerPtr   *Inner          `json:"innerPtr"`
	PlainPtr   *Plain          `json:"plainPtr"`
	PtrPtr     **int           `json:"ptrPtr"`
	SlicePtr   *[]string       `json:"slicePtr"`
	MapPtr     *map[string]int `json:"mapPtr"`
	TagsPtr    *Tags           `json:"tagsPtr"`
	TimePtr    *metav1.Time    `json:"timePtr"`
	LevelPtr   *Level          `json:"levelPtr"`
	ManualPtr  *Manual         `json:"manualPtr"`
	ByValuePtr *ByValue        `json:"byValuePtr"`

	// Slices.
	Strings    []string            `json:"strings"`
	Inners     []Inner             `json:"inners"`
	InnerPtrs  []*Inner            `json:"innerPtrs"`
	Nested     [][]string          `json:"nested"`
	Maps       []map[string]string `json:"maps"`
	Plains     []Plain             `json:"plains"`
	Times      []metav1.Time       `json:"times"`
	TagsList   []Tags              `json:"tagsList"`
	Conditions []metav1.Condition  `json:"conditions"`

	// Maps.
	Labels       map[string]string            `json:"labels"`
	InnerMap     map[string]Inner             `json:"innerMap"`
	PtrMap       map[string]*Inner            `json:"ptrMap"`
	SliceMap     map[string][]string          `json:"sliceMap"`
	MapMap       map[string]map[string]int    `json:"mapMap"`
	TagsMap      map[string]Tags              `json:"tagsMap"`
	Quantities   map[string]resource.Quantity `json:"quantities"`
	ResourceList corev1.ResourceList          `json:"resourceList"`
	Set          map[string]struct{}          `json:"set"`
	ManualMap    map[string]Manual            `json:"manualMap"`
	ByValueMap   map[string]ByValue           `json:"byValueMap"`
	PlainMap     map[Plain]Plain              `json:"plainMap"`

	// Named types over slices and maps.
	Tags   Tags   `json:"tags"`
	Attrs  Attrs  `json:"attrs"`
	Matrix Matrix `json:"matrix"`

	// Arrays.
	Fixed     [4]int   `json:"fixed"`
	FixedPtrs [2]*int  `json:"fixedPtrs"`
	FixedTags [2]Tags  `json:"fixedTags"`
	FixedMaps [2]Inner `json:"fixedMaps"`

	// Structs: embedded, nested, anonymous.
	Inner  `json:",inline"`
	*Extra `json:"extra,omitempty"`
	Plain  Plain              `json:"plain"`
	Nest   Nest               `json:"nest"`
	Anon   struct{ A, B int } `json:"anon"`

	// Interfaces with a DeepCopy<Interface> method.
	Object runtime.Object    `json:"-"`
	Pet    Animal            `json:"-"`
	Pets   []Animal          `json:"-"`
	PetMap map[string]Animal `json:"-"`

	// Types of other packages, with hand-written deepcopy methods or plain values.
	Time       metav1.Time           `json:"time"`
	Duration   metav1.Duration       `json:"duration"`
	Quantity   resource.Quantity     `json:"quantity"`
	Raw        runtime.RawExtension  `json:"raw"`
	IntOrStr   intstr.IntOrString    `json:"intOrStr"`
	IntOrStrP  *intstr.IntOrString   `json:"intOrStrP"`
	Selector   *metav1.LabelSelector `json:"selector"`
	Common     common.Plain          `json:"common"`
	CommonCopy common.WithCopy       `json:"commonCopy"`

	// Types with hand-written deepcopy methods.
	Manual  Manual  `json:"manual"`
	ByValue ByValue `json:"byValue"`
	ByPtr   ByPtr   `json:"byPtr"`

	// Opted out of generation, but copied by its own hand-written method.
	Skipped Skipped `json:"skipped"`
}

// Phase is a named string: assignment copies it, and it gets no functions.
type Phase string

// Level is a named integer with a hand-written DeepCopy, which makes it copyable.
type Level int

// DeepCopy returns the receiver.
func (in Level) DeepCopy() Level { return in }

// Tags is a named slice.
type Tags []string

// Attrs is a named map of slices.
type Attrs map[string][]string

// Matrix is a named slice of slices of pointers.
type Matrix [][]*Inner

// Inner is a struct with reference fields.
type Inner struct {
	Values []int `json:"values"`
	Ptr    *bool `json:"ptr"`
}

// Plain is a struct assignment copies.
type Plain struct {
	A int    `json:"a"`
	B string `json:"b"`
}

// Extra is embedded through a pointer.
type Extra struct {
	Notes map[string]string `json:"notes"`
}

// Nest nests structs.
type Nest struct {
	Inner Inner `json:"inner"`
	Next  *Nest `json:"next"`
	Plain Plain `json:"plain"`
}

// Manual has a hand-written DeepCopyInto: only DeepCopy is generated.
type Manual struct {
	Items []string `json:"items"`
}

// DeepCopyInto copies the receiver into out.
func (in *Manual) DeepCopyInto(out *Manual) {
	*out = *in
	out.Items = append([]string(nil), in.Items...)
}

// ByValue has a hand-written DeepCopy with a value receiver: the generated DeepCopyInto calls it.
type ByValue struct {
	Items []string `json:"items"`
}

// DeepCopy returns a deep copy.
func (in ByValue) DeepCopy() ByValue {
	return ByValue{Items: append([]string(nil), in.Items...)}
}

// ByPtr has a hand-written DeepCopy with a pointer receiver: the generated DeepCopyInto calls it.
type ByPtr struct {
	Items []string `json:"items"`
}

// DeepCopy returns a deep copy.
func (in *ByPtr) DeepCopy() *ByPtr {
	if in == nil {
		return nil
	}
	return &ByPtr{Items: append([]string(nil), in.Items...)}
}

// +k8s:deepcopy-gen=false

// Skipped opts out of generation; its methods are hand-written.
type Skipped struct {
	Items []string `json:"items"`
}

// DeepCopyInto copies the receiver into out.
func (in *Skipped) DeepCopyInto(out *Skipped) {
	*out = *in
	out.Items = append([]string(nil), in.Items...)
}

// Animal is an interface whose values copy themselves.
type Animal interface {
	DeepCopyAnimal() Animal
	Sound() string
}

// +k8s:deepcopy-gen:interfaces=github.com/kgen-dev/kgen/testdata/apis/shapes/v1.Animal
// +k8s:deepcopy-gen:nonpointer-interfaces=true

// Dog is an Animal held by value.
type Dog struct {
	Name string   `json:"name"`
	Toys []string `json:"toys"`
}

// Sound implements Animal.
func (Dog) Sound() string { return "woof" }

// +k8s:deepcopy-gen:interfaces=github.com/kgen-dev/kgen/testdata/apis/shapes/v1.Animal

// Cat is an Animal held by pointer.
type Cat struct {
	Lives *int `json:"lives"`
}

// Sound implements Animal.
func (*Cat) Sound() string { return "meow" }

// internalState is unexported: it gets no functions.
type internalState struct {
	items []string
}

var _ = internalState{}
