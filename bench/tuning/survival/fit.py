#!/usr/bin/env python3
"""The survival fit of `logit.py` with numpy, over the solver's features and the candidate
features `survive` also writes (`x`, named in `survival::CANDIDATES`), to ask which candidates
the key misses (bench/tuning/README.md, session 11). Needs numpy (`pip install numpy`).

Within each sampled depth, key and features are centred on the depth's means; a logistic
regression gives survival log-odds = a * key + b . features (a < 0). b / a per feature is how
its weight should move for the key to rank as survival does. Held-out log-likelihood per file
(`--folds`) says whether a set of features explains survival beyond the key.
"""
import argparse, json, collections
import numpy as np

NAMES = ['cells', 'row_transitions', 'wall_transitions', 'column_transitions', 'holes',
         'hole_rows', 'shallow_holes', 'well_sums', 'bumpiness', 'max_height', 'top_cells',
         'landing_height', 'clean_well', 'spawn_column']
USE = [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 13]
CANDIDATES = ['ready_rows', 'ready_run', 'well_holes', 'row0', 'row1', 'row2', 'row3', 'row4',
              'row5', 'flat_pairs', 'step1_pairs', 'step3_pairs', 'side_range', 'buried',
              'partial_rows', 'full_rows9', 'cells_over150', 'cells_over160']


def load(path, neg, seed=1):
    """Per row: centred key, centred solver features, centred candidates, i_dist; label."""
    rng = np.random.default_rng(seed)
    groups = collections.defaultdict(list)
    for line in open(path):
        r = json.loads(line)
        groups[r['t']].append(r)
    K, F, C, D, Y = [], [], [], [], []
    for t in sorted(groups):
        rows = groups[t]
        alive = [r for r in rows if r['alive']]
        dead = [r for r in rows if not r['alive']]
        if not alive or not dead:
            continue
        take = min(len(dead), neg * len(alive))
        pick = rng.choice(len(dead), size=take, replace=False)
        sel = alive + [dead[i] for i in sorted(pick)]
        mk, mf, mx = rows[0]['mk'], np.array(rows[0]['mf']), np.array(rows[0]['mx'])
        for r in sel:
            K.append(r['key'] - mk)
            F.append(np.array(r['f'])[USE] - mf[USE])
            C.append(np.array(r['x']) - mx)
            D.append(r['idist'])
            Y.append(1.0 if r['alive'] else 0.0)
    return dict(k=np.array(K), f=np.array(F), c=np.array(C), d=np.array(D), y=np.array(Y))


def design(data, cands, near):
    """Columns: 1, key, solver features, chosen candidates (name or name@I for the candidate
    only where the next I is at most `near` pieces ahead)."""
    cols = [np.ones_like(data['k']), data['k']] + [data['f'][:, j] for j in range(len(USE))]
    for name in cands:
        base, _, gate = name.partition('@')
        v = data['c'][:, CANDIDATES.index(base)]
        if gate:
            v = v * (data['d'] <= near)
        cols.append(v)
    return np.stack(cols, axis=1)


def fit(X, y, lam=1e-2, iters=25):
    w = np.zeros(X.shape[1])
    for _ in range(iters):
        z = np.clip(X @ w, -30, 30)
        p = 1 / (1 + np.exp(-z))
        g = X.T @ (y - p) - lam * w
        H = (X * (p * (1 - p))[:, None]).T @ X + lam * np.eye(len(w))
        step = np.linalg.solve(H, g)
        w += step
        if np.abs(step).max() < 1e-9:
            break
    return w


def loglik(X, y, w):
    p = np.clip(1 / (1 + np.exp(-np.clip(X @ w, -30, 30))), 1e-12, 1 - 1e-12)
    return float(np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('files', nargs='+')
    ap.add_argument('--neg', type=int, default=20)
    ap.add_argument('--cands', default='', help='comma-separated candidates (name or name@I)')
    ap.add_argument('--near', type=int, default=4, help='the @I gate: next I at most this far')
    ap.add_argument('--folds', type=int, default=0)
    ap.add_argument('--scan', action='store_true',
                    help='for every candidate alone (and gated), the held-out gain over --cands')
    ap.add_argument('--greedy', type=int, default=0,
                    help='add this many candidates one at a time, each the best held-out gain')
    ap.add_argument('--base', help='weights file to step from')
    ap.add_argument('--step', type=float, default=0.0)
    ap.add_argument('--skip', default='spawn_column')
    ap.add_argument('--out')
    args = ap.parse_args()
    data = {f: load(f, args.neg) for f in args.files}
    cands = [c for c in args.cands.split(',') if c]

    def heldout(cs, idx=None):
        total = 0.0
        for hold in args.files[:args.folds]:
            tr = [design(data[f], cs, args.near) for f in args.files if f != hold]
            yt = np.concatenate([data[f]['y'] for f in args.files if f != hold])
            Xt = np.concatenate(tr)
            w = fit(Xt, yt)
            total += loglik(design(data[hold], cs, args.near), data[hold]['y'], w)
        return total / max(1, args.folds)

    if args.folds:
        print(f'held-out log-likelihood: solver features {heldout([]):.5f}, '
              f'with {cands}: {heldout(cands):.5f}')
    for _ in range(args.greedy):
        base = heldout(cands)
        gains = {n + g: heldout(cands + [n + g]) - base for n in CANDIDATES for g in ['', '@I']
                 if n + g not in cands}
        best = max(gains, key=gains.get)
        cands.append(best)
        print(f'  + {best:20s} {gains[best]:+.5f} -> {base + gains[best]:.5f}', flush=True)
    if args.scan:
        base = heldout(cands)
        for name in CANDIDATES:
            for g in ['', '@I']:
                if name + g in cands:
                    continue
                print(f'  + {name + g:20s} {heldout(cands + [name + g]) - base:+.5f}', flush=True)
    X = np.concatenate([design(data[f], cands, args.near) for f in args.files])
    y = np.concatenate([data[f]['y'] for f in args.files])
    w = fit(X, y)
    names = [NAMES[i] for i in USE] + cands
    print(f'rows {len(y)}, survivors {int(y.sum())}, a (key) {w[1]:.4f}')
    delta = {n: float(w[2 + j] / w[1]) for j, n in enumerate(names)}
    for n, v in delta.items():
        print(f'{n:20s} {v:8.3f}')
    if args.out:
        weights = json.load(open(args.base))
        skip = set(filter(None, args.skip.split(',')))
        for n, v in delta.items():
            # A candidate gated on a near I is the solver's weight `<name>_near_i`.
            n = n.replace('@I', '_near_i')
            if n not in skip:
                weights[n] = weights.get(n, 0.0) + args.step * v
        json.dump(weights, open(args.out, 'w'), indent=1)


if __name__ == '__main__':
    main()
