//! The bundled greedy bot as a standalone executable: `endodoi-greedy [--seed N]`.

fn main() {
    std::process::exit(endodoi_bots::main_for("greedy", std::env::args().skip(1)));
}
