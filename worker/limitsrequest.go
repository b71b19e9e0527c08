package worker

import "slices"

// LimitsRequest is the limits part of a PATCH of an sdk worker: the
// fields to change; an absent one keeps its value, and an empty value (""
// , 0, []) removes the limit.
type LimitsRequest struct {
	AppendSystemPrompt *string   `json:"appendSystemPrompt"`
	MaxTurns           *int      `json:"maxTurns"`
	MaxBudgetUSD       *float64  `json:"maxBudgetUsd"`
	AllowedTools       *[]string `json:"allowedTools"`
	DisallowedTools    *[]string `json:"disallowedTools"`
	AddDirs            *[]string `json:"addDirs"`
}

func (r LimitsRequest) empty() bool {
	return r.AppendSystemPrompt == nil && r.MaxTurns == nil && r.MaxBudgetUSD == nil &&
		r.AllowedTools == nil && r.DisallowedTools == nil && r.AddDirs == nil
}

// apply returns l and allowed with r's changes, validated.
func (r LimitsRequest) apply(l Limits, allowed []string) (Limits, []string, error) {
	l = l.clone()
	if r.AppendSystemPrompt != nil {
		l.AppendSystemPrompt = *r.AppendSystemPrompt
	}
	if r.MaxTurns != nil {
		l.MaxTurns = *r.MaxTurns
	}
	if r.MaxBudgetUSD != nil {
		l.MaxBudgetUSD = *r.MaxBudgetUSD
	}
	if r.DisallowedTools != nil {
		l.DisallowedTools = nilIfEmpty(*r.DisallowedTools)
	}
	if r.AddDirs != nil {
		l.AddDirs = nilIfEmpty(*r.AddDirs)
	}
	if r.AllowedTools != nil {
		allowed = nilIfEmpty(*r.AllowedTools)
		if err := checkToolRules("allowedTools", allowed); err != nil {
			return l, nil, err
		}
	}
	l, err := l.check()
	return l, slices.Clone(allowed), err
}

// changes reports whether the limits or allowed tools differ.
func (r LimitsRequest) changes(l Limits, allowed []string, nl Limits, nallowed []string) bool {
	return l.AppendSystemPrompt != nl.AppendSystemPrompt || l.MaxTurns != nl.MaxTurns || l.MaxBudgetUSD != nl.MaxBudgetUSD ||
		!slices.Equal(l.DisallowedTools, nl.DisallowedTools) || !slices.Equal(l.AddDirs, nl.AddDirs) || !slices.Equal(allowed, nallowed)
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}
