package fakeapi

// The "tasks" script (issue 15): CLI 2.1.330's own task tools in place of
// TodoWrite. They are deferred tools (their schemas come from a ToolSearch
// "select:" first) and are offered only when the model is one the CLI lists
// or CLAUDE_CODE_ENABLE_TODO_TOOLS=1 is set (and CLAUDE_CODE_ENABLE_TASKS is
// not 0). TaskCreate answers "Task #<id> created successfully: <subject>";
// TaskUpdate takes that id. Recorded in testdata/tasks.stream.jsonl.
func init() {
	update := func(id, status string) block {
		return toolBlock("TaskUpdate", map[string]any{"taskId": id, "status": status})
	}
	scripts["tasks"] = [][]block{
		{textBlock("Let me plan this."), toolBlock("ToolSearch", map[string]any{
			"query": "select:TaskCreate,TaskUpdate", "max_results": 2})},
		{
			taskCreate("Read the code", "Reading the code"),
			taskCreate("Build the thing", "Building the thing"),
			taskCreate("Write the tests", "Writing the tests"),
		},
		{update("1", "completed"), update("2", "in_progress")},
		// A Bash call that asks for permission: the turn waits here, with
		// the list pinned.
		{toolBlock("Bash", map[string]any{"command": "touch built.txt", "description": "Build the thing"})},
		{update("2", "completed"), update("3", "completed")},
	}
}

func taskCreate(subject, activeForm string) block {
	return toolBlock("TaskCreate", map[string]any{
		"subject": subject, "description": subject + ".", "activeForm": activeForm})
}
