# mitm experiments: rules are added with the engine.
