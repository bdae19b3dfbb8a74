package pane

import (
	"crypto/rand"
	"encoding/hex"
)

func nonce() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
