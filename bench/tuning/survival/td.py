#!/usr/bin/env python3
"""A points-aware fit of the evaluation (bench/tuning/README.md, session 12): for every state of a
beam that still has descendants H pieces later, `survive` writes the lowest key among them
(`dkey`). A key that ranks states by the points their lines go on to make would satisfy, up to a
constant per depth, eval(state) = dkey + score_weight * score(state): the best descendant's key
with this state's own points taken out. This regresses that target on the state's features
(centred per depth, survivors only) and compares the fitted weights with the weights the data was
made with: how well each explains the target held out, and the weights stepped toward the fit.
Needs numpy.
"""
import argparse, json, collections
import numpy as np
import fit

# The names, the features used and the design come from `fit.py`, so the two fits read the data
# alike. The solver's features that `survive` writes among the candidates, as `fit.py --cands`
# names them (`@I`: weighed only while an I is near, the solver's `<name>_near_i`).
ADOPTED = ['ready_rows@I', 'ready_run', 'flat_pairs', 'step1_pairs', 'step3_pairs']


def load(path, sw, near):
    """Survivors only, per depth centred: the features of `fit.design` (without its constant
    and key columns) and the target."""
    groups = collections.defaultdict(list)
    for line in open(path):
        r = json.loads(line)
        if r['alive']:
            groups[r['t']].append(r)
    X, Y = [], []
    for t in sorted(groups):
        rows = groups[t]
        if len(rows) < 2:
            continue
        data = dict(k=np.zeros(len(rows)),
                    f=np.array([np.array(r['f'])[fit.USE] for r in rows], float),
                    c=np.array([r['x'] for r in rows], float),
                    d=np.array([r['idist'] for r in rows]))
        xs = fit.design(data, ADOPTED, near)[:, 2:]
        ys = np.array([r['dkey'] + sw * r['score'] for r in rows])
        X.append(xs - xs.mean(0))
        Y.append(ys - ys.mean())
    return np.concatenate(X), np.concatenate(Y)


def names():
    return [fit.NAMES[i] for i in fit.USE] + [c.replace('@I', '_near_i') for c in ADOPTED]


def ridge(X, y, lam):
    return np.linalg.solve(X.T @ X + lam * np.eye(X.shape[1]), X.T @ y)


def r2(X, y, w):
    return 1 - np.mean((y - X @ w) ** 2) / np.mean(y ** 2)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('files', nargs='+')
    ap.add_argument('--base', required=True, help='the weights the data was made with')
    ap.add_argument('--score-weight', type=float, default=0.024)
    ap.add_argument('--near', type=int, default=4)
    ap.add_argument('--lam', type=float, default=10.0)
    ap.add_argument('--step', type=float, default=0.0)
    ap.add_argument('--skip', default='spawn_column')
    ap.add_argument('--out')
    args = ap.parse_args()
    base = json.load(open(args.base))
    wb = np.array([base.get(n, 0.0) for n in names()])
    data = [load(f, args.score_weight, args.near) for f in args.files]
    # Held out per file: the fit against the base weights (scaled by one factor fitted on the
    # training files, since only the ranking matters).
    fit_r2, base_r2 = [], []
    for i in range(len(data)):
        Xt = np.concatenate([d[0] for j, d in enumerate(data) if j != i])
        yt = np.concatenate([d[1] for j, d in enumerate(data) if j != i])
        w = ridge(Xt, yt, args.lam)
        pb = Xt @ wb
        scale = float(pb @ yt / (pb @ pb))
        fit_r2.append(r2(*data[i], w))
        base_r2.append(r2(*data[i], scale * wb))
    print(f'held-out R2: fit {np.mean(fit_r2):.4f}, base weights {np.mean(base_r2):.4f}')
    X = np.concatenate([d[0] for d in data])
    y = np.concatenate([d[1] for d in data])
    w = ridge(X, y, args.lam)
    print(f'rows {len(y)}; per feature: base weight, fitted weight, spread (sd) of the feature')
    for n, a, b, s in zip(names(), wb, w, X.std(0)):
        print(f'{n:20s} {a:8.3f} {b:8.3f} {s:8.2f}')
    if args.out:
        skip = set(filter(None, args.skip.split(',')))
        for n, a, b in zip(names(), wb, w):
            if n not in skip:
                base[n] = a + args.step * (b - a)
        json.dump(base, open(args.out, 'w'), indent=1)


if __name__ == '__main__':
    main()
