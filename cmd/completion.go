package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/panectl/panectl/cmd/tool"
	"github.com/panectl/panectl/schema"
	"github.com/spf13/cobra"
)

// Shell completion (Cobra's: `panectl completion bash|zsh|fish`) is wired in
// one place: wireCompletion walks the finished command tree, so a command
// added later gets completion from its Use line and flag names alone:
//
//   - a positional named PANE (e.g. Use "send-text PANE [TEXT]") completes to
//     the live pane ids of the server, each described by its command
//     ("%3\tbash"); -L/-S on the command line being completed are honoured;
//   - a positional named TASK or ID under the task commands completes to the
//     task ids the list_tasks tool reports;
//   - KEY... completes to key names, a positional named TOOL to tool names;
//   - --recognizer completes to the recognizer ids (bundled and user),
//     --cursor to its special values, --pane to pane ids, --session to
//     session names, --state to the turn states, -L to the socket names
//     under $TMUX_TMPDIR.
//
// A command that sets its own ValidArgsFunction or flag completion keeps it.

// completionTimeout bounds a completion's tmux calls: a shell waits on it.
const completionTimeout = 2 * time.Second

// completer lists the candidates for one argument ("value\tdescription").
type completer func(ctx context.Context, f *Factory, args []string) []string

// positionalCompleters maps the placeholder words of Use lines to completers.
var positionalCompleters = map[string]completer{
	"PANE": completePaneIDs,
	"TASK": completeTaskIDs,
	"KEY":  completeKeyNames,
	"KEYS": completeKeyNames,
	"TOOL": completeToolNames,
}

// flagCompleters maps flag names (on any command) to completers.
var flagCompleters = map[string]completer{
	"recognizer":  completeRecognizers,
	"cursor":      completeCursorSpecials,
	"pane":        completePaneIDs,
	"session":     completeSessions,
	"state":       completeStates,
	"socket-name": completeSocketNames,
}

// wireCompletion attaches the completers to every command of the tree.
func wireCompletion(root *cobra.Command, f *Factory) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.ValidArgsFunction == nil && c.Runnable() {
			if slots, ok := positionalSlots(c); ok {
				c.ValidArgsFunction = positionalCompletion(f, slots)
			}
		}
		local := c.LocalFlags() // (built anew at each call)
		for name, comp := range flagCompleters {
			if local.Lookup(name) == nil {
				continue
			}
			if _, exists := c.GetFlagCompletionFunc(name); exists {
				continue
			}
			_ = c.RegisterFlagCompletionFunc(name, func(c *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
				return runCompleter(c, f, comp, args)
			})
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	completeHelpTopics(root)
}

// completeHelpTopics makes `panectl help <TAB>` offer the help topics too
// (Cobra's help command lists only runnable commands).
func completeHelpTopics(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	var help *cobra.Command
	for _, c := range root.Commands() {
		if c.Name() == "help" {
			help = c
		}
	}
	if help == nil || help.ValidArgsFunction == nil {
		return
	}
	base := help.ValidArgsFunction
	help.ValidArgsFunction = func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		out, dir := base(c, args, toComplete)
		if len(args) == 0 {
			for _, t := range root.Commands() {
				if t.IsAdditionalHelpTopicCommand() && strings.HasPrefix(t.Name(), toComplete) {
					out = append(out, t.Name()+"\t"+t.Short)
				}
			}
		}
		return out, dir
	}
}

// slots are the completers of a command's positionals, in order (nil for a
// positional without one); when variadic, the last one repeats.
type slots struct {
	comps    []completer
	variadic bool
}

// positionalSlots reads the positionals of c's Use line ("send-keys PANE
// KEY..."); ok is false when none has a completer. A trailing "..." repeats
// the last one; a flag in the Use line ends them.
func positionalSlots(c *cobra.Command) (s slots, ok bool) {
	words := strings.Fields(c.Use)
	for _, w := range words[min(1, len(words)):] {
		if strings.HasPrefix(strings.TrimLeft(w, "["), "-") {
			break
		}
		name := strings.Trim(w, "[]")
		s.variadic = strings.HasSuffix(name, "...")
		name = strings.TrimSuffix(name, "...")
		comp := positionalCompleters[name]
		if name == "ID" && c.HasParent() && strings.HasPrefix(c.Parent().Name(), "task") {
			comp = completeTaskIDs
		}
		ok = ok || comp != nil
		s.comps = append(s.comps, comp)
		if s.variadic {
			break
		}
	}
	return s, ok
}

func positionalCompletion(f *Factory, s slots) cobra.CompletionFunc {
	return func(c *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		i := len(args)
		if s.variadic && i >= len(s.comps) {
			i = len(s.comps) - 1
		}
		switch {
		case i >= len(s.comps):
			return nil, cobra.ShellCompDirectiveNoFileComp // no more positionals
		case s.comps[i] == nil:
			return nil, cobra.ShellCompDirectiveDefault
		}
		return runCompleter(c, f, s.comps[i], args)
	}
}

// runCompleter runs one completer with a bounded context. Candidates never
// fall back to file names.
func runCompleter(c *cobra.Command, f *Factory, comp completer, args []string) ([]string, cobra.ShellCompDirective) {
	ctx := c.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, completionTimeout)
	defer cancel()
	return comp(ctx, f, args), cobra.ShellCompDirectiveNoFileComp
}

// completePaneIDs lists the live panes of the server -L/-S (or $TMUX, or
// the default socket) name: "%3\tbash". No server: no candidates.
func completePaneIDs(ctx context.Context, f *Factory, _ []string) []string {
	out, err := tool.ListPanes.Run(ctx, &f.Env, schema.ListPanesInput{})
	if err != nil {
		return nil
	}
	var ids []string
	for _, p := range out.Panes {
		ids = append(ids, p.PaneID+"\t"+p.Command)
	}
	return ids
}

// completeTaskIDs lists task ids from the list_tasks tool, when the branch
// has one: its output's "tasks" array, each with "task_id" (or "id") and
// "command" described. No list_tasks tool yet: no candidates.
func completeTaskIDs(ctx context.Context, f *Factory, _ []string) []string {
	out, err := tool.ListTasks.Run(ctx, &f.Env, schema.ListTasksInput{})
	if err != nil {
		return nil
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil
	}
	var list struct {
		Tasks []struct {
			TaskID  string `json:"task_id"`
			ID      string `json:"id"`
			Command string `json:"command"`
			Status  string `json:"status"`
		} `json:"tasks"`
	}
	if json.Unmarshal(b, &list) != nil {
		return nil
	}
	var ids []string
	for _, t := range list.Tasks {
		id := t.TaskID
		if id == "" {
			id = t.ID
		}
		if id == "" {
			continue
		}
		desc := strings.TrimSpace(t.Command + " " + bracket(t.Status))
		ids = append(ids, id+"\t"+desc)
	}
	return ids
}

// completeSessions lists the sessions of the server, by name, with their
// panes' count. No server: no candidates.
func completeSessions(ctx context.Context, f *Factory, _ []string) []string {
	out, err := tool.ListPanes.Run(ctx, &f.Env, schema.ListPanesInput{})
	if err != nil {
		return nil
	}
	var names []string
	panes := map[string]int{}
	for _, p := range out.Panes {
		if panes[p.SessionName] == 0 {
			names = append(names, p.SessionName)
		}
		panes[p.SessionName]++
	}
	for i, n := range names {
		names[i] = fmt.Sprintf("%s\t%d panes", n, panes[n])
	}
	return names
}

// completeStates lists the turn states (wait-for-turn --state).
func completeStates(context.Context, *Factory, []string) []string {
	return []string{string(schema.StateAwaitingApproval), string(schema.StateAwaitingInput), string(schema.StateBusy), string(schema.StateUnknown)}
}

func bracket(s string) string {
	if s == "" {
		return ""
	}
	return "(" + s + ")"
}

// completeRecognizers lists the recognizer ids (tool.RecognizerIDs).
func completeRecognizers(context.Context, *Factory, []string) []string {
	return tool.RecognizerIDs()
}

func completeCursorSpecials(context.Context, *Factory, []string) []string {
	return []string{"screen\tthe start of the visible screen", "history\tthe oldest retained line"}
}

func completeKeyNames(context.Context, *Factory, []string) []string {
	keys := []string{"Enter", "Escape", "Tab", "BTab", "Backspace", "Up", "Down", "Left", "Right",
		"Home", "End", "PageUp", "PageDown", "Delete", "Insert", "Space", "C-c", "C-d", "C-z", "C-l"}
	for i := 1; i <= 12; i++ {
		keys = append(keys, fmt.Sprintf("F%d", i))
	}
	return keys
}

func completeToolNames(context.Context, *Factory, []string) []string {
	var names []string
	for _, t := range schema.Tools() {
		names = append(names, t.Name+"\t"+t.Title)
	}
	return names
}

// completeSocketNames lists the names -L accepts (tool.SocketNames).
func completeSocketNames(context.Context, *Factory, []string) []string {
	return tool.SocketNames()
}
