//! The verification algorithms built on the CPA core, the domains, the proofs and the
//! refiners: CEGAR, the unrolling core of BMC and k-induction, and the run on the CFA with
//! overflow checks. Each is a stepping machine ([`crate::cpa::algorithm::Algorithm`]).
//! (Concrete execution, the other stepping analysis, is [`crate::concrete::execution`].)

pub mod bmc;
pub mod cegar;
pub mod kinduction;
pub mod overflow;
pub mod undefined;
pub mod unroll;
