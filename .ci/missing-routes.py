#!/usr/bin/env python3
"""Lists the reference's routes (.ci/reference-routes.txt: every mapping of
OpenConext-Invite's server controllers, the source the service spec was
derived from) that routeTable() in shared/httpapi/routes.go does not serve.
Path parameter names are ignored; page routes in shared/web/routes.go count
as served. Usage: python3 .ci/missing-routes.py (from the repository root)."""
import re, sys

def norm(route):
    return re.sub(r'\{[^}]*\}', '{}', route.strip())

def served():
    out = set()
    for path in ('shared/httpapi/routes.go', 'shared/web/routes.go'):
        try:
            src = open(path).read()
        except OSError:
            continue
        consts = dict(re.findall(r'const (\w+) = "([^"]+)"', src))
        for m in re.finditer(r'"(GET|POST|PUT|DELETE|PATCH) ((?:/[^"]*)?)"(?:\s*\+\s*(\w+)\s*\+\s*"([^"]*)")?', src):
            method, path_, const, tail = m.groups()
            if const:
                path_ = path_ + consts.get(const, '') + tail
            out.add(norm(method + ' ' + path_))
    return out

def main():
    have = served()
    ref = [l for l in open('.ci/reference-routes.txt') if l.strip()]
    missing = [r.strip() for r in ref if norm(r) not in have]
    for r in missing:
        print(r)
    print(f'{len(missing)} of {len(ref)} reference routes not served', file=sys.stderr)

if __name__ == '__main__':
    main()
