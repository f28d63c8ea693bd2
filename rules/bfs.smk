# bfs experiments: rules are added with the engine.
