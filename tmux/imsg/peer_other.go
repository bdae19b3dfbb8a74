//go:build !linux

package imsg

import "net"

// sameServerBinary cannot tell the server's binary outside Linux: the
// version of bin is trusted, as tmux's own client trusts its own.
func sameServerBinary(conn *net.UnixConn, bin string) (same, known bool) { return false, false }
