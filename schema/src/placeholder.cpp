namespace lqe::schema {}
