//! The bundled mcts bot as a standalone executable: `endodoi-mcts [OPTIONS]` (`--help` lists them).

fn main() {
    std::process::exit(endodoi_bots::main_for("mcts", std::env::args().skip(1)));
}
