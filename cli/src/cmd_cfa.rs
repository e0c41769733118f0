//! `cpa check` and `cpa cfa`.

use crate::input::load;
use clap::{Args, ValueEnum};
use cpa_engine::cfa::lbe;
use std::process::ExitCode;

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Dot,
    Json,
}

#[derive(Args)]
pub struct CfaArgs {
    file: String,
    /// Print the large-block-encoding summary instead of the CFA.
    #[arg(long)]
    lbe: bool,
    #[arg(long, value_enum, default_value = "dot")]
    format: Format,
}

pub fn check(file: &str) -> ExitCode {
    match load(file) {
        Ok(_) => {
            println!("ok");
            ExitCode::SUCCESS
        }
        Err(()) => ExitCode::from(1),
    }
}

pub fn run(args: &CfaArgs) -> ExitCode {
    let Ok(parsed) = load(&args.file) else {
        return ExitCode::from(1);
    };
    let graph = if args.lbe {
        lbe::summarize(&parsed.cfa).graph(&parsed.cfa)
    } else {
        parsed.cfa.graph()
    };
    match args.format {
        Format::Dot => print!("{}", graph.to_dot(&args.file)),
        Format::Json => match serde_json::to_string_pretty(&graph) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        },
    }
    ExitCode::SUCCESS
}
