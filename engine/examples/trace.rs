//! Debug helper: runs a preset on a file and prints every event.
use cpa_engine::config::Config;
use cpa_engine::parse_program;
use cpa_engine::session::Session;
use cpa_engine::smt::BridgeSmt;
use solver_bridge::solver::NativeZ3;
use std::rc::Rc;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let src = std::fs::read_to_string(&args[1]).unwrap();
    let parsed = parse_program(&args[1], &src).unwrap();
    let mut config = Config::preset(&args[2]).unwrap();
    for kv in &args[3..] {
        let (k, v) = kv.split_once('=').unwrap();
        config.set(k, v).unwrap();
    }
    let smt = BridgeSmt::new(NativeZ3::new().unwrap());
    let mut s = Session::new(Rc::new(parsed.cfa), config, Box::new(smt));
    let v = s.run().clone();
    for e in s.events() {
        println!("{}", serde_json::to_string(e).unwrap());
    }
    println!("{v:?}");
}
