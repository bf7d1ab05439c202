#!/usr/bin/env python3
"""Lists the reference's routes (.ci/reference-routes.txt: every mapping of
OpenConext-Invite's server controllers, the source the service spec was
derived from) that routeTable() in shared/httpapi/routes.go does not serve.
Path parameter names are ignored; page routes in shared/web/routes.go count
as served. Routes answered by a README decision instead of the reference's
behaviour (.ci/route-decisions.txt) are listed apart, so that "not served"
counts only routes nobody has decided about; a decision for a route that is
not served, or not a reference route, is an error (exit 1).
Usage: python3 .ci/missing-routes.py (from the repository root)."""
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

def decisions():
    out = {}
    for line in open('.ci/route-decisions.txt'):
        line = line.strip()
        if line and not line.startswith('#'):
            route, _, answer = line.partition(' -- ')
            out[norm(route)] = (route.strip(), answer.strip())
    return out

def main():
    have, decided = served(), decisions()
    ref = [l.strip() for l in open('.ci/reference-routes.txt') if l.strip()]
    refs = {norm(r) for r in ref}
    missing = [r for r in ref if norm(r) not in have and norm(r) not in decided]
    for r in missing:
        print(r)
    errors = [f'decided but not served: {route}' for key, (route, _) in decided.items() if key not in have]
    errors += [f'decided but not a reference route: {route}' for key, (route, _) in decided.items() if key not in refs]
    if decided:
        print(f'answered by a decision (.ci/route-decisions.txt, README decisions):', file=sys.stderr)
        for route, answer in decided.values():
            print(f'  {route} -- {answer}', file=sys.stderr)
    for e in errors:
        print('error: ' + e, file=sys.stderr)
    print(f'{len(missing)} of {len(ref)} reference routes not served; {len(decided)} answered by a decision; '
          f'{len(ref) - len(missing) - len(decided)} served as the reference', file=sys.stderr)
    sys.exit(1 if errors else 0)

if __name__ == '__main__':
    main()
