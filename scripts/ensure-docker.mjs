// The tests of `balena deploy` (and of real devices and the builder) run a real container engine:
// Debian's docker.io (dockerd, overlay2), started by each test on a socket of its own. Test images
// are built from scratch around Debian's statically linked busybox: nothing is pulled.
import { ensureDebianPackage } from './ensure-debian-package.mjs';

export const ensureDocker = () => {
  ensureDebianPackage({
    program: '/usr/sbin/dockerd',
    pkg: 'docker.io',
    why: 'for the container-engine tests',
  });
  // The dynamically linked busybox package installs the same /bin/busybox: ask for the static one
  // by a file only it has.
  ensureDebianPackage({
    program: '/usr/share/doc/busybox-static/copyright',
    pkg: 'busybox-static',
    why: 'for the images the container-engine tests build from scratch',
  });
  // Registers QEMU user emulation with binfmt_misc (the F flag): the builder's tests build images
  // for another CPU architecture.
  ensureDebianPackage({
    program: '/usr/bin/qemu-aarch64-static',
    pkg: 'qemu-user-static',
    why: 'for the builds for another CPU architecture through emulation',
  });
};
