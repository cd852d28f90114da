//! The bundled alphabeta bot as a standalone executable: `endodoi-alphabeta [OPTIONS]` (`--help` lists them).

fn main() {
    let stdio = endodoi_bots::Stdio {
        input: std::io::stdin().lock(),
        output: std::io::stdout().lock(),
        errors: std::io::stderr(),
    };
    std::process::exit(endodoi_bots::main_for(
        "alphabeta",
        std::env::args().skip(1),
        stdio,
    ));
}
