package scim

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
)

// MemberSource emits the members of a group one by one (for example page by
// page from a database) and returns the first error.
type MemberSource func(emit func(Member) error) error

// ReplaceGroupStreaming PUTs /Groups/{id} with all members like ReplaceGroup,
// but the members come from source and are spooled to a temporary file, so
// that memory stays bounded however large the group is, while the request
// still carries a Content-Length. The response body is not read into a
// Group: for a large group it is as large as the request.
func (c *Client) ReplaceGroupStreaming(ctx context.Context, id string, g Group, source MemberSource) error {
	path, err := resourcePath(groupsPath, id)
	if err != nil {
		return err
	}
	g = outgoingGroup(g)
	g.ID, g.Members = id, nil
	spool, size, err := spoolGroup(g, source)
	if err != nil {
		return err
	}
	defer os.Remove(spool.Name())
	defer spool.Close()
	return c.do(ctx, request{
		method: http.MethodPut, path: path, encoded: spool, encodedLen: size,
		ok: []int{http.StatusOK, http.StatusNoContent},
	})
}

// spoolGroup writes the group's JSON with the members from source to a
// temporary file and returns it rewound, with its size.
func spoolGroup(g Group, source MemberSource) (*os.File, int64, error) {
	head, err := json.Marshal(g)
	if err != nil {
		return nil, 0, fmt.Errorf("scim: encode group: %w", err)
	}
	// Group always writes "members":[] ; the members go inside those brackets.
	const empty = `"members":[]`
	at := bytes.LastIndex(head, []byte(empty))
	if at < 0 {
		return nil, 0, fmt.Errorf("scim: encoded group lacks its members")
	}
	f, err := os.CreateTemp("", "scim-group-*.json")
	if err != nil {
		return nil, 0, fmt.Errorf("scim: spool group: %w", err)
	}
	fail := func(err error) (*os.File, int64, error) {
		f.Close()
		os.Remove(f.Name())
		return nil, 0, err
	}
	w := bufio.NewWriter(f)
	w.Write(head[:at+len(empty)-1]) // up to and including "["
	first := true
	err = source(func(m Member) error {
		if m.Value == "" {
			return fmt.Errorf("scim: member without a value (SP-side user id)")
		}
		b, err := json.Marshal(m)
		if err != nil {
			return err
		}
		if !first {
			w.WriteByte(',')
		}
		first = false
		_, err = w.Write(b)
		return err
	})
	if err != nil {
		return fail(err)
	}
	w.Write(head[at+len(empty)-1:]) // "]" and the rest of the object
	if err := w.Flush(); err != nil {
		return fail(fmt.Errorf("scim: spool group: %w", err))
	}
	size, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return fail(err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fail(err)
	}
	return f, size, nil
}
