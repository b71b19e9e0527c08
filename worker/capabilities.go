package worker

import "context"

// Capabilities is what an agent's CLI says it offers, from its own answer
// to initialize: the models it can switch to, the slash commands it knows,
// and the permission mode in force.
type Capabilities struct {
	Models         []Model   `json:"models"`
	Commands       []Command `json:"commands"`
	PermissionMode string    `json:"permissionMode,omitempty"`
}

// Model is one model the CLI offers: Value is what a live model change and
// --model take (an alias such as "sonnet", or "default").
type Model struct {
	Value         string `json:"value"`
	DisplayName   string `json:"displayName"`
	Description   string `json:"description"`
	ResolvedModel string `json:"resolvedModel,omitempty"`
}

// Command is one slash command the CLI knows, without its slash.
type Command struct {
	Name         string `json:"name"`
	Description  string `json:"description"`
	ArgumentHint string `json:"argumentHint,omitempty"`
}

// CapabilityLister is an agent runtime that can say what its CLI offers
// (GET …/models, GET …/commands). It may start the CLI to ask it.
type CapabilityLister interface {
	Capabilities(ctx context.Context) (Capabilities, error)
}
