package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// placeholderDir holds a bootstrap that fails every invocation. It lets
// `make synth` and the tests run on a clean checkout, where `make build` has
// not produced the function zips.
const placeholderDir = "placeholder"

// functionCode says where the code of one function comes from.
type functionCode struct {
	// Path is the zip file, or the placeholder directory.
	Path        string
	Placeholder bool
}

// resolveFunctionCode finds <codeDir>/<name>.zip. When it is missing the
// placeholder is used, unless required is set (deployments), in which case
// the missing zip is an error that names the fix.
func resolveFunctionCode(codeDir, name string, required bool) (functionCode, error) {
	zip := filepath.Join(codeDir, name+".zip")
	info, err := os.Stat(zip)
	if err == nil && info.Mode().IsRegular() {
		return functionCode{Path: zip}, nil
	}
	if required {
		return functionCode{}, fmt.Errorf("function code %s is missing: run 'make build' in the repository root (or set context %s)", zip, ctxCodeDir)
	}
	return functionCode{Path: placeholderDir, Placeholder: true}, nil
}
