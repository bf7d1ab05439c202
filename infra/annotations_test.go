package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrintAnnotations: the warnings and errors of the assembly's manifest
// reach the terminal, informational entries and other metadata do not.
func TestPrintAnnotations(t *testing.T) {
	dir := t.TempDir()
	manifest := `{"version": "48.0.0", "artifacts": {
	  "InviteStack": {"type": "aws:cloudformation:stack", "metadata": {
	    "/InviteStack": [
	      {"type": "aws:cdk:warning", "data": "context oidcIssuer or oidcAudience is not set: the API will reject every user token [ack: invite:oidcUnset]"},
	      {"type": "aws:cdk:info", "data": "just so you know"},
	      {"type": "aws:cdk:logicalId", "data": "Table"}],
	    "/InviteStack/users": [{"type": "aws:cdk:error", "data": "code missing"}]},
	    "additionalMetadataFile": "InviteStack.metadata.json"},
	  "Tree": {"type": "cdk:tree"}}}`
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	extra := `{"/InviteStack/users/Resource": [{"type": "aws:cdk:warning", "data": "placeholder code"}, {"type": "aws:cdk:logicalId", "data": "X"}]}`
	if err := os.WriteFile(filepath.Join(dir, "InviteStack.metadata.json"), []byte(extra), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	n, err := printAnnotations(&out, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := "WARNING at /InviteStack: context oidcIssuer or oidcAudience is not set: the API will reject every user token [ack: invite:oidcUnset]\n" +
		"ERROR at /InviteStack/users: code missing\n" +
		"WARNING at /InviteStack/users/Resource: placeholder code\n"
	if n != 3 || out.String() != want {
		t.Errorf("printed %d:\n%s\nwant:\n%s", n, out.String(), want)
	}
	if _, err := printAnnotations(&out, t.TempDir()); err == nil {
		t.Error("no error without a manifest")
	}
}
