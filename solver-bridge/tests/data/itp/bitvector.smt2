; status: unsat
; farkas: not-applicable
; qe: may-fail
; unsigned char x = 250; x = x + 10; assume(x > 200)  (wraps to 4)
(declare-fun x0 () (_ BitVec 8))
(declare-fun x1 () (_ BitVec 8))
(assert (= x0 #xfa))
(assert (= x1 (bvadd x0 #x0a)))
(assert (bvugt x1 #xc8))
