//! The bundled mcts bot as a standalone executable: `endodoi-mcts [OPTIONS]` (`--help` lists them).

fn main() {
    let stdio = endodoi_bots::Stdio {
        input: std::io::stdin().lock(),
        output: std::io::stdout().lock(),
        errors: std::io::stderr(),
    };
    std::process::exit(endodoi_bots::main_for(
        "mcts",
        std::env::args().skip(1),
        stdio,
    ));
}
