// The event generator lands with the foundation work.
namespace lqe::bench {}
