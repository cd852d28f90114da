//! The bundled greedy bot as a standalone executable: `endodoi-greedy [--seed N]`.

fn main() {
    let stdio = endodoi_bots::Stdio {
        input: std::io::stdin().lock(),
        output: std::io::stdout().lock(),
        errors: std::io::stderr(),
    };
    std::process::exit(endodoi_bots::main_for(
        "greedy",
        std::env::args().skip(1),
        stdio,
    ));
}
