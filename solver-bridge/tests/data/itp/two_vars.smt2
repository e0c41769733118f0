; status: unsat
; farkas: not-applicable
; i = 0; n >= 0; j = n; i' = i + 1; j' = j - 1; error if i' + j' != n
(declare-fun i0 () Int)
(declare-fun n () Int)
(declare-fun j0 () Int)
(declare-fun i1 () Int)
(declare-fun j1 () Int)
(assert (and (= i0 0) (>= n 0)))
(assert (= j0 n))
(assert (and (= i1 (+ i0 1)) (= j1 (- j0 1))))
(assert (not (= (+ i1 j1) n)))
