; status: unsat
; farkas: not-applicable
; an LBE block with a branch: if (c) x1 = x0 + 1 else x1 = x0 + 2; then x1 must be 0
(declare-const x0 Int)
(declare-const x1 Int)
(declare-const c Bool)
(assert (>= x0 0))
(assert (or (and c (= x1 (+ x0 1))) (and (not c) (= x1 (+ x0 2)))))
(assert (<= x1 0))
