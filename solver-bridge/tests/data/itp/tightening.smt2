; status: unsat
; 2x = 2y + 1 has no integer solution; the exact integer tightening makes Farkas apply
(declare-fun x () Int)
(declare-fun y () Int)
(assert (>= x 0))
(assert (= (* 2 x) (+ (* 2 y) 1)))
