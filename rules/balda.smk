# balda experiments: rules are added with the engine.
