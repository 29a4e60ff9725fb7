/**
 * The compiler that make ran, and gfortran's kind mismatch (session 56, helper fx20; issue 25). The log is GNU make 4.3
 * running gfortran 12.2 on this machine; the project is made up (a `kinds` module with `dp`, a `physics` module).
 */
import { askWithGit as ask, gitRepo, removeGitRepos } from './helpers/gitRepo.js';

afterAll(removeGitRepos);

const LOG = `Started by an SCM change
[fluid] $ /bin/sh -xe /tmp/jenkins5.sh
+ make
mkdir -p build
gfortran -O2 -Jbuild -c src/kinds.f90 -o build/kinds.o
gfortran -O2 -Jbuild -c src/physics.f90 -o build/physics.o
gfortran -O2 -Jbuild -c src/main.f90 -o build/main.o
src/main.f90:7:19:

    7 |   call step(x, 1.5)
      |                   1
Error: Type mismatch in argument ‘dt’ at (1); passed REAL(4) to REAL(8)
make: *** [Makefile:7: build/main] Error 1
Build step 'Execute shell' marked build as failure
Finished: FAILURE
`;
const FILES: Record<string, string> = {
  "src/kinds.f90": "module kinds\n  implicit none\n  integer, parameter :: dp = kind(1.0d0)\nend module kinds\n",
  "src/physics.f90": "module physics\n  use kinds\n  implicit none\ncontains\n  subroutine step(x, dt)\n    real(dp), intent(inout) :: x\n    real(dp), intent(in) :: dt\n    x = x + dt\n  end subroutine step\nend module physics\n",
  "src/main.f90": "program main\n  use kinds\n  use physics\n  implicit none\n  real(dp) :: x\n  x = 0.0_dp\n  call step(x, 1.5)\n  print *, x\nend program main\n",
  "Makefile": "FC = gfortran\nFFLAGS = -O2 -Jbuild\nbuild/main: src/kinds.f90 src/physics.f90 src/main.f90\n\tmkdir -p build\n\t$(FC) $(FFLAGS) -c src/kinds.f90 -o build/kinds.o\n\t$(FC) $(FFLAGS) -c src/physics.f90 -o build/physics.o\n\t$(FC) $(FFLAGS) -c src/main.f90 -o build/main.o\n\t$(FC) -o build/main build/*.o\n"
};
const MAIN = FILES['src/main.f90'] as string;

describe('make echoed the compiler: the compiler is the tool', () => {
  it('"`gfortran` (run by `make`) rejected the code", and the kind the argument needs', async () => {
    const { dir } = gitRepo([{ message: 'Fluid', files: FILES }], { prefix: 'cichat-fx20-' });
    const why = await ask('why did it fail?', LOG, dir);
    expect(why).toContain('`gfortran` (run by `make`) rejected the code at `src/main.f90:7:19`');
    expect(why).not.toContain('`make` rejected the code');
    const fix = await ask('how do I fix it?', LOG, dir);
    expect(fix).toContain("the actual argument `1.5` has kind 4 (`REAL(4)`), and the procedure's dummy `dt` wants kind 8 (`REAL(8)`). Write `1.5d0` in place of `1.5`.");
    expect(fix).toContain('This file writes its kinds as `dp`: if `dp` is kind 8 (its `parameter` line says), `1.5_dp` says the same');
  });

  it('a kind parameter the file declares itself, and a variable argument', async () => {
    const main = MAIN.replace('  implicit none\n', '  implicit none\n  integer, parameter :: wp = kind(1.0d0)\n').replace('call step(x, 1.5)', 'call step(x, h)').replace('  real(dp) :: x\n', '  real(dp) :: x\n  real :: h = 0.5\n');
    const log = LOG.replace('src/main.f90:7:19:', 'src/main.f90:9:17:').replace(/ {4}7 \| {3}call step\(x, 1\.5\)\n {6}\| {19}1/, '    9 |   call step(x, h)\n      |                 1');
    const { dir } = gitRepo([{ message: 'Fluid', files: { ...FILES, 'src/main.f90': main } }], { prefix: 'cichat-fx20-' });
    const fix = await ask('how do I fix it?', log, dir);
    expect(fix).toContain("the actual argument `h` has kind 4");
    expect(fix).toContain('The file declares `wp` as that kind, so write `real(h, wp)` in place of `h`');
  });

  it('counter-example: make without an echoed compiler command stays make\'s', async () => {
    const log = LOG.split('\n').filter((l) => !/^gfortran /.test(l)).join('\n');
    const { dir } = gitRepo([{ message: 'Fluid', files: FILES }], { prefix: 'cichat-fx20-' });
    const why = await ask('why did it fail?', log, dir);
    expect(why).not.toContain('(run by `make`)');
  });
});
