//! The bundled random bot as a standalone executable: `endodoi-random [--seed N]`.

fn main() {
    let stdio = endodoi_bots::Stdio {
        input: std::io::stdin().lock(),
        output: std::io::stdout().lock(),
        errors: std::io::stderr(),
    };
    std::process::exit(endodoi_bots::main_for(
        "random",
        std::env::args().skip(1),
        stdio,
    ));
}
