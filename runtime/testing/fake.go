package testing

import (
	"fmt"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kgen-dev/kgen/runtime/rest"
)

// FakeClient is what a generated fake clientset offers on top of its typed clients.
type FakeClient interface {
	// Tracker returns the ObjectTracker that stores the clientset's objects.
	Tracker() ObjectTracker
	// AddReactor appends a reaction for verb and resource to the chain.
	AddReactor(verb, resource string, reaction ReactionFunc)
	// PrependReactor puts a reaction for verb and resource in front of the chain.
	PrependReactor(verb, resource string, reaction ReactionFunc)
	// AddWatchReactor appends a watch reaction for resource to the chain.
	AddWatchReactor(resource string, reaction WatchReactionFunc)
	// PrependWatchReactor puts a watch reaction for resource in front of the chain.
	PrependWatchReactor(resource string, reaction WatchReactionFunc)
	// AddProxyReactor appends a proxy reaction for resource to the chain.
	AddProxyReactor(resource string, reaction ProxyReactionFunc)
	// PrependProxyReactor puts a proxy reaction for resource in front of the chain.
	PrependProxyReactor(resource string, reaction ProxyReactionFunc)
	// Invokes records the action and answers it through the reaction chain.
	Invokes(action Action, defaultReturnObj runtime.Object) (runtime.Object, error)
	// InvokesWatch records the watch action and answers it through the watch chain.
	InvokesWatch(action Action) (watch.Interface, error)
	// InvokesProxy records the proxy action and answers it through the proxy chain.
	InvokesProxy(action Action) rest.ResponseWrapper
	// ClearActions forgets the recorded actions.
	ClearActions()
	// Actions returns the recorded actions, oldest first.
	Actions() []Action
}

// Fake records the actions a fake client is asked to perform and answers them through chains of
// reactors. Generated fake clientsets embed it.
//
// Like client-go's, it embeds a sync.RWMutex that guards the recorded actions and the reaction
// chains, so fake clientsets and group clients offer Lock, RLock and the rest. Reactors run without
// the lock held: a reactor may call the Fake, and a test holding Lock blocks every action until it
// calls Unlock.
type Fake struct {
	sync.RWMutex
	actions []Action

	// ReactionChain is tried in order for every non-watch, non-proxy action.
	ReactionChain []Reactor
	// WatchReactionChain is tried in order for every watch action.
	WatchReactionChain []WatchReactor
	// ProxyReactionChain is tried in order for every proxy action.
	ProxyReactionChain []ProxyReactor

	// Resources is what the fake discovery client reports as served.
	Resources []*metav1.APIResourceList
}

// Reactor decides whether it handles an action and, if so, produces the result.
type Reactor interface {
	// Handles reports whether React should be tried for the action.
	Handles(action Action) bool
	// React produces the result; handled=false passes the action on to the next reactor.
	React(action Action) (handled bool, ret runtime.Object, err error)
}

// WatchReactor is a Reactor for watch actions.
type WatchReactor interface {
	// Handles reports whether React should be tried for the action.
	Handles(action Action) bool
	// React produces the watch; handled=false passes the action on to the next reactor.
	React(action Action) (handled bool, ret watch.Interface, err error)
}

// ProxyReactor is a Reactor for proxy actions.
type ProxyReactor interface {
	// Handles reports whether React should be tried for the action.
	Handles(action Action) bool
	// React produces the response; handled=false passes the action on to the next reactor.
	React(action Action) (handled bool, ret rest.ResponseWrapper, err error)
}

// ReactionFunc answers an action; handled=false passes it on to the next reactor in the chain.
type ReactionFunc func(action Action) (handled bool, ret runtime.Object, err error)

// WatchReactionFunc answers a watch action; handled=false passes it on.
type WatchReactionFunc func(action Action) (handled bool, ret watch.Interface, err error)

// ProxyReactionFunc answers a proxy action; handled=false passes it on.
type ProxyReactionFunc func(action Action) (handled bool, ret rest.ResponseWrapper, err error)

// AddReactor appends a reaction for verb and resource ("*" matches any) to the chain.
func (c *Fake) AddReactor(verb, resource string, reaction ReactionFunc) {
	c.Lock()
	defer c.Unlock()
	c.ReactionChain = append(c.ReactionChain, &SimpleReactor{Verb: verb, Resource: resource, Reaction: reaction})
}

// PrependReactor puts a reaction for verb and resource in front of the chain.
func (c *Fake) PrependReactor(verb, resource string, reaction ReactionFunc) {
	c.Lock()
	defer c.Unlock()
	c.ReactionChain = append([]Reactor{&SimpleReactor{Verb: verb, Resource: resource, Reaction: reaction}}, c.ReactionChain...)
}

// AddWatchReactor appends a watch reaction for resource ("*" matches any) to the chain.
func (c *Fake) AddWatchReactor(resource string, reaction WatchReactionFunc) {
	c.Lock()
	defer c.Unlock()
	c.WatchReactionChain = append(c.WatchReactionChain, &SimpleWatchReactor{Resource: resource, Reaction: reaction})
}

// PrependWatchReactor puts a watch reaction for resource in front of the chain.
func (c *Fake) PrependWatchReactor(resource string, reaction WatchReactionFunc) {
	c.Lock()
	defer c.Unlock()
	c.WatchReactionChain = append([]WatchReactor{&SimpleWatchReactor{Resource: resource, Reaction: reaction}}, c.WatchReactionChain...)
}

// AddProxyReactor appends a proxy reaction for resource to the chain.
func (c *Fake) AddProxyReactor(resource string, reaction ProxyReactionFunc) {
	c.Lock()
	defer c.Unlock()
	c.ProxyReactionChain = append(c.ProxyReactionChain, &SimpleProxyReactor{Resource: resource, Reaction: reaction})
}

// PrependProxyReactor puts a proxy reaction for resource in front of the chain.
func (c *Fake) PrependProxyReactor(resource string, reaction ProxyReactionFunc) {
	c.Lock()
	defer c.Unlock()
	c.ProxyReactionChain = append([]ProxyReactor{&SimpleProxyReactor{Resource: resource, Reaction: reaction}}, c.ProxyReactionChain...)
}

// record stores a copy of the action and returns another copy for the reactors together with a
// snapshot of the chain, so reactors run without the lock and may themselves call the Fake.
func record[R any](c *Fake, action Action, chain *[]R) (Action, []R) {
	c.Lock()
	defer c.Unlock()
	c.actions = append(c.actions, action.DeepCopy())
	return action.DeepCopy(), append([]R(nil), *chain...)
}

// Invokes records the action and returns the answer of the first reactor that handles it, or
// defaultReturnObj when none does.
func (c *Fake) Invokes(action Action, defaultReturnObj runtime.Object) (runtime.Object, error) {
	action, chain := record(c, action, &c.ReactionChain)
	for _, r := range chain {
		if !r.Handles(action) {
			continue
		}
		if handled, ret, err := r.React(action); handled {
			return ret, err
		}
	}
	return defaultReturnObj, nil
}

// InvokesWatch records the action and returns the watch of the first reactor that handles it.
// When none does, the error of the last reactor that declined with one is returned (generated
// fakes decline watches the tracker refused), or else an error naming the action.
func (c *Fake) InvokesWatch(action Action) (watch.Interface, error) {
	action, chain := record(c, action, &c.WatchReactionChain)
	var declined error
	for _, r := range chain {
		if !r.Handles(action) {
			continue
		}
		handled, ret, err := r.React(action)
		if handled {
			return ret, err
		}
		if err != nil {
			declined = err
		}
	}
	if declined != nil {
		return nil, declined
	}
	return nil, fmt.Errorf("no watch reactor handles %s %s", action.GetVerb(), describeResource(action))
}

// InvokesProxy records the action and returns the response of the first reactor that handles it
// without error, or nil.
func (c *Fake) InvokesProxy(action Action) rest.ResponseWrapper {
	action, chain := record(c, action, &c.ProxyReactionChain)
	for _, r := range chain {
		if !r.Handles(action) {
			continue
		}
		if handled, ret, err := r.React(action); handled && err == nil {
			return ret
		}
	}
	return nil
}

// ClearActions forgets the recorded actions.
func (c *Fake) ClearActions() {
	c.Lock()
	defer c.Unlock()
	c.actions = nil
}

// Actions returns the recorded actions, oldest first.
func (c *Fake) Actions() []Action {
	c.RLock()
	defer c.RUnlock()
	return append(make([]Action, 0, len(c.actions)), c.actions...)
}

// SimpleReactor handles actions whose verb and resource match ("*" matches anything; the resource
// may be "pods/status" to match a subresource).
type SimpleReactor struct {
	Verb     string
	Resource string

	Reaction ReactionFunc
}

// Handles reports whether the verb and resource match.
func (r *SimpleReactor) Handles(action Action) bool {
	return (r.Verb == "*" || r.Verb == action.GetVerb()) && resourceCovers(r.Resource, action)
}

// React calls the reaction.
func (r *SimpleReactor) React(action Action) (bool, runtime.Object, error) {
	return r.Reaction(action)
}

// SimpleWatchReactor handles watch actions whose resource matches ("*" matches anything).
type SimpleWatchReactor struct {
	Resource string

	Reaction WatchReactionFunc
}

// Handles reports whether the resource matches.
func (r *SimpleWatchReactor) Handles(action Action) bool { return resourceCovers(r.Resource, action) }

// React calls the reaction.
func (r *SimpleWatchReactor) React(action Action) (bool, watch.Interface, error) {
	return r.Reaction(action)
}

// SimpleProxyReactor handles proxy actions whose resource matches ("*" matches anything).
type SimpleProxyReactor struct {
	Resource string

	Reaction ProxyReactionFunc
}

// Handles reports whether the resource matches.
func (r *SimpleProxyReactor) Handles(action Action) bool { return resourceCovers(r.Resource, action) }

// React calls the reaction.
func (r *SimpleProxyReactor) React(action Action) (bool, rest.ResponseWrapper, error) {
	return r.Reaction(action)
}

// DefaultWatchReactor returns a watch reaction that always answers with the given watch and error.
func DefaultWatchReactor(watchInterface watch.Interface, err error) WatchReactionFunc {
	return func(Action) (bool, watch.Interface, error) { return true, watchInterface, err }
}

// resourceCovers matches "*", a resource name, or "resource/subresource".
func resourceCovers(resource string, action Action) bool {
	if resource == "*" || resource == action.GetResource().Resource {
		return true
	}
	top, sub, ok := strings.Cut(resource, "/")
	return ok && top == action.GetResource().Resource && sub == action.GetSubresource()
}

func describeResource(action Action) string {
	s := action.GetResource().String()
	if sub := action.GetSubresource(); sub != "" {
		s += "/" + sub
	}
	if ns := action.GetNamespace(); ns != "" {
		s += " in namespace " + ns
	}
	return s
}
