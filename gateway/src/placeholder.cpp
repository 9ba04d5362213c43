namespace lqe::gateway {}
