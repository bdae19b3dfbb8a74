package pane

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/panectl/panectl/schema"
	"github.com/panectl/panectl/tmux"
)

// A cursor's full record (Encode) can run to hundreds of characters: it
// fingerprints the rows it saw. A model must copy a cursor back exactly,
// so panectl prints at most schema.MaxCursor characters. A longer record
// is saved on the pane, in the user option cursorOption, and the printed
// token names it by pane, pid and digest ("pc2...").
//
// The option holds records separated by '.', newest last. tmux appends
// each one and keeps the newest schema.CursorStore characters in one
// set-option, so concurrent panectl processes lose none. A record is used
// only when its SHA-256 matches the digest in the token. So nothing
// another process writes into the option can pass for a cursor.
const (
	cursorOption = "@panectl_cursors"
	savedMagic   = "pc2"
	digestLen    = 12
)

// Save returns the token of cur to print. A short record is the token
// itself; a longer one is saved on the pane first. When it cannot be saved
// (the pane is gone), the whole record is returned: it is still valid.
func Save(ctx context.Context, c *tmux.Client, id string, cur Cursor) string {
	tok, save := Token(id, cur)
	if save == nil {
		return tok
	}
	if _, err := c.RunList(ctx, nil, save); err != nil {
		return cur.Encode()
	}
	return tok
}

// Token returns the token of cur and the tmux command that saves its
// record on pane id, nil when the record is the token. The token is valid
// once the command has run; a caller runs it with commands of its own.
func Token(id string, cur Cursor) (string, tmux.Command) {
	rec := cur.Encode()
	if len(rec) <= schema.MaxCursor {
		return rec, nil
	}
	keep := fmt.Sprintf("#{=-%d:%s}.%s", schema.CursorStore, cursorOption, rec)
	return savedToken(cur, rec), tmux.Command{"set-option", "-p", "-F", "-t", id, cursorOption, keep}
}

// savedToken is "pc2" and base64url of the pane number, its pid and the
// record's digest.
func savedToken(cur Cursor, rec string) string {
	b := binary.AppendUvarint(nil, uint64(cur.PaneID))
	b = binary.AppendUvarint(b, uint64(cur.PanePID))
	sum := sha256.Sum256([]byte(rec))
	b = append(b, sum[:digestLen]...)
	return savedMagic + base64.RawURLEncoding.EncodeToString(b)
}

// parseSaved decodes a "pc2" token into a cursor that knows only its pane
// and the digest of its record (Load finds the rest).
func parseSaved(s string) (Cursor, bool) {
	b, err := base64.RawURLEncoding.DecodeString(s[len(savedMagic):])
	if err != nil {
		return Cursor{}, false
	}
	id, n := binary.Uvarint(b)
	if n <= 0 || id > 1<<40 {
		return Cursor{}, false
	}
	b = b[n:]
	pid, n := binary.Uvarint(b)
	if n <= 0 || pid > 1<<40 || len(b[n:]) != digestLen {
		return Cursor{}, false
	}
	return Cursor{PaneID: int(id), PanePID: int(pid), saved: s, digest: string(b[n:])}, true
}

// Load returns the full cursor of a saved token, read from the pane's
// option. Any other cursor is returned as it is. The error wraps
// ErrBadCursor when the cursor is another pane's, or its record is no
// longer kept.
func Load(ctx context.Context, c *tmux.Client, id string, cur Cursor) (Cursor, error) {
	if cur.saved == "" {
		return cur, nil
	}
	if err := cur.Check(id, 0); err != nil {
		return Cursor{}, err
	}
	all, err := c.PaneOption(ctx, id, cursorOption)
	if err != nil {
		return Cursor{}, err
	}
	for _, rec := range strings.Split(all, ".") {
		sum := sha256.Sum256([]byte(rec))
		if !bytes.Equal(sum[:digestLen], []byte(cur.digest)) {
			continue
		}
		full, err := ParseCursor(rec)
		if err != nil || full.saved != "" || full.PaneID != cur.PaneID || full.PanePID != cur.PanePID {
			break
		}
		return full, nil
	}
	return Cursor{}, fmt.Errorf("%w: pane %s no longer keeps this cursor's record (it keeps those of the last %d KiB of cursors made on it); read again with cursor %q", ErrBadCursor, id, schema.CursorStore>>10, CursorScreen)
}
