// Package recognize classifies the turn state of the program in a tmux pane
// (busy, awaiting_input, awaiting_approval or unknown) from one look at its
// screen, title and foreground command. It is the engine behind
// `panectl recognize` and `panectl wait-for-turn` (SPEC section 7).
//
// The package runs no tmux commands and does no I/O except reading manifest
// files in Load. Nothing happens at package initialisation: manifests are
// parsed when Load is called.
//
// # What it promises
//
//   - Classify looks once and says what it saw, with Evidence: the rule id, the
//     region it looked at and the row (or title, or command) that matched.
//   - Rules are tried in state order: awaiting_approval first (a dialog is
//     static and some agents keep a spinner running while it is shown), then
//     busy (every agent keeps its input box visible while it works), then
//     unknown (vetoes input, e.g. a transcript view), then awaiting_input.
//     Within one state, rules are tried in the order the manifest lists them,
//     and a rule tries its region's rows bottom first.
//   - A trust, sign-in, API-key or selection dialog is awaiting_approval.
//     The cues every agent shares (option lists with a highlighted entry,
//     "enter to select / esc to go back" footers, [y/N], trust and sign-in
//     screens, pickers with a search field) live in one layer,
//     manifests/dialogs.toml, that agents list in `use`: its rules are tried
//     before the agent's own, state by state.
//   - The pane title and the foreground command are evidence like screen rows
//     (regions "title" and "command"): Gemini's `✋  Action Required` title is
//     approval, Codex's braille spinner in the title is busy.
//   - Only the live region counts: rules look at the bottom of the screen, at
//     the input box or the rows just above it, never at the whole scrollback
//     unless a manifest says "screen". A busy hint counts only as the live
//     status row (e.g. above_input_box:1): a finished turn's "esc to
//     interrupt" with transcript rows under it is not busy; an input box
//     pushed up by footer lines is still found. While the agent's composer
//     shows idle at the bottom (a row of the input box that one of the
//     manifest's awaiting_input rules on input_box matches, with at most 4
//     footer rows under it), no dialog is shown: a dialog replaces or covers
//     the composer. Approval rules then never see the transcript above the
//     box (a prompt or an answer quoting "Enter to confirm" or "● 1. Allow
//     once"); when the box is the composer alone (found by input_marker, or
//     between the last two rules) they see no row at all: not the user's
//     draft in it, nor the footer under it (Codex prints the session title
//     there). Title rules still count.
//     A box holding a layer's option list ("❯ 1. Yes" beside "2. No") is a
//     dialog, not the composer: Claude draws first-run choices there.
//   - For awaiting_approval, Result.Options lists the dialog's options as
//     ReadDialog reads them: key, text, and which one is highlighted.
//     Choose picks one by its text (yes, always, no, or a key).
//   - Key hints ("Enter to confirm · Esc to cancel") count only beside a
//     question or options: an answered dialog's leftover hints are no
//     dialog. An agent retrying after a server error ("Retrying in 5s",
//     "Retrying (1/3)") is busy.
//   - A rule's note goes into Result.Note: "Press Ctrl-C again to exit" is
//     awaiting_input by rule exit-pending, whose note says the next C-c
//     ends the program.
//   - Rows are matched without the box frames they are drawn in (│ ┃ ║ ▎ at
//     either end, a scrollbar █ at the end): "│ ❯ 1. Yes   │" is matched as
//     "❯ 1. Yes", and that is the evidence line.
//   - A fallback (no rule matched) names the rules it looked for
//     (Evidence.LookedFor). A shell's foreground job nobody recognizes is
//     Manifest.JobFallback (busy, for generic).
//   - A program nobody recognizes is judged by the kernel (Screen.Process,
//     region "process"): generic and shell call it awaiting_input while it
//     reads the terminal, busy while it runs or sleeps elsewhere.
//   - Quiescence is the caller's job. Result.NeedsQuiet says when a state
//     should be trusted only after the screen has been unchanged for quiet_ms:
//     always for awaiting_input, for rules marked weak, and for a fallback.
//   - A regex match is bounded by MatchTimeout; a rule that times out is
//     skipped for that call (Result.Note says so), so a catastrophic user
//     pattern cannot hang a wait.
//   - Bad manifests are errors naming the file and line (*ManifestError),
//     never silently ignored.
//
// # Recognizers and auto
//
// The bundled recognizers are generic, shell (bash, zsh, fish, sh, dash),
// python, node and the coding agents claude, codex, gemini, qwen, antigravity
// (alias agy), cursor, opencode, copilot, grok, amp, droid, kimi and pi.
// "auto" picks one per screen; see Set.Resolve for the order (foreground
// process, argv behind node/bun wrappers, title cues, screen cues, then
// shell/REPL/generic).
//
// # Regions
//
// Rows are the screen's rows with no-break spaces turned into spaces,
// trailing whitespace and trailing blank rows removed. A horizontal rule is a
// row that, after leading spaces, starts with ─, ━ or ═ and is mostly made of
// them (a rule carrying a session name still counts; box borders ╭──╮ and
// dashed ╌ lines do not).
//
//	screen              every row
//	bottom:N            the last N non-empty rows
//	after_last_rule     the rows below the last horizontal rule (every row
//	                    when there is none)
//	input_box           the live input box: the last row matching the
//	                    manifest's input_marker and its continuation rows;
//	                    else the rows between the last two rules; else the
//	                    rows after the only rule; else the last row
//	above_input_box:N   the N non-empty rows directly above the input box
//	                    (where agents draw their spinner line)
//	title               pane_title
//	command             pane_current_command
//	cursor_line         the row under the cursor ("" when the cursor sits
//	                    below the text; the last non-empty row when the
//	                    cursor is unknown)
//	job                 Screen.Job: the foreground job of the pane's shell
//	shell               Screen.Shell: a live pane's shell in the foreground,
//	                    as its terminal mode and /proc tell it ("at prompt:
//	                    ...", "busy: ...", "not at prompt: ..."); empty for
//	                    a saved screen or when nothing tells
//	process             Screen.Process: the kernel's verdict on the
//	                    foreground process group of a live pane whose
//	                    foreground is not an interactive shell ("reads the
//	                    terminal: ...", "busy: ..."); empty for a saved
//	                    screen or when nothing tells
//
// # Manifest format
//
// One TOML file per recognizer. Bundled ones are embedded from manifests/;
// users add or override them (by id) with *.toml files in
// $XDG_CONFIG_HOME/panectl/recognizers (UserDir), passed to Load. Unknown
// keys are errors. Patterns are regexp2 syntax (lookaround, backreferences,
// (?i)); TOML literal strings ('...') need no escaping.
//
//	id = "claude"                      # required; lower case, unique
//	name = "Claude Code"
//	aliases = ["claude-code"]          # other names for --recognizer
//	processes = ["claude"]             # pane_current_command values and argv names
//	process_patterns = ['^\d+\.\d+\.\d+$']   # e.g. version-string process names
//	wrapper = false                    # true for node/python: hosts other programs
//	late_cues = false                  # screen cues tried last, bottom 3 rows only
//	title_cues = ['Claude Code']       # pane_title patterns for auto
//	screen_cues = ['Claude Code v\d']  # row patterns for auto
//	input_marker = '^› '               # optional: first row of the input box
//	echo_prefixes = ["❯ "]             # optional: before a submitted message in the transcript
//	use = ["dialogs"]                  # layers whose rules come first
//	fallback = "unknown"               # state when no rule matches
//	job_fallback = "busy"              # optional: instead, when the shell runs a job
//
// A layer is a manifest with `layer = true`, an id and rules only (no
// processes, cues, aliases, input_marker or echo_prefixes); it is not a
// recognizer.
//
//	[[rules]]
//	id = "claude-spinner"              # required, unique in the file
//	state = "busy"                     # busy | awaiting_input | awaiting_approval | unknown
//	region = "above_input_box:6"       # see Regions
//	regex = '^\s*[·✢✳✶✻✽*●]\s+\S.*…\s*\('
//	command = '^claude$'               # optional: pane_current_command must match too
//	process = '^busy:'                 # optional: the process verdict must match too
//	also = '^\s*\d+\.'                  # optional: another row of the region must match too
//	weak = false                       # true: the state needs quiescence to be trusted
//	note = "the next Ctrl-C exits"     # optional: put in Result.Note when the rule matches
package recognize
