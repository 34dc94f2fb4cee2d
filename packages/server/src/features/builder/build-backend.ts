import type { Readable } from 'node:stream';

// What the builder asks of a container engine: build an image from a context, push it to the
// fleet's registry. One implementation talks to Docker's Engine API (docker-build-backend.ts).

export type ImageBuildRequest = {
  // The Dockerfile's path inside the context.
  dockerfile: string;
  buildArgs: Record<string, string>;
  // The stage of a multi-stage Dockerfile to build; the last one when undefined.
  target: string | undefined;
  // The reference the image is tagged with: its location in the fleet's registry.
  tag: string;
  // Whether the build's steps reach the network (FLOTILLA_BUILDER_NETWORK).
  network: boolean;
  // Every step runs again, none taken from the engine's cache (balena push --nocache).
  noCache: boolean;
  // The platform to build for (linux/arm64) when it is not the engine's own, whose programs the
  // engine's host runs through emulation; undefined: the engine's own.
  platform: string | undefined;
  // The build's secrets by their id, which its Dockerfile mounts (`RUN --mount=type=secret`);
  // empty for most builds.
  secrets: ReadonlyMap<string, Buffer>;
};

// A build or push either succeeds or fails with the engine's reason (a failing RUN, a refused
// push); anything else (the engine unreachable) is thrown.
export type Outcome<T> = ({ ok: true } & T) | { ok: false; error: string };

export type BuildBackend = {
  build(
    // A plain tar stream of the build context.
    context: Readable,
    request: ImageBuildRequest,
    onLog: (line: string) => void,
  ): Promise<Outcome<{ imageId: string }>>;
  // Pushes the tagged image with a registry token for exactly its repository; answers the
  // manifest's digest and the image's size.
  push(
    tag: string,
    registryToken: string,
    onLog: (line: string) => void,
  ): Promise<Outcome<{ digest: string; size: number }>>;
  // The CPU architecture the engine builds for, as the Engine API names it (amd64, arm64, arm).
  architecture(): Promise<string>;
  // Whether the engine runs programs of another platform (linux/arm64): its host runs them
  // natively or through QEMU user emulation registered with binfmt_misc.
  runsPlatform(platform: string): Promise<boolean>;
  // Removes the local image once it is in the registry (the engine keeps its layers as cache).
  remove(tag: string): Promise<void>;
};
