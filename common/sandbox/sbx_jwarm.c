/* sbx_jwarm.c - a warm Java slot's stage: the helper that hands the tool's
 * classes to a waiting JVM only after javacheck passed them, and the
 * loader that JVM runs (sbx_jwarm.h). */
#include "common/sandbox/sbx_jwarm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/bounded_rw.h"
#include "common/base/fileio.h"
#include "common/sandbox/javacheck.h"
#include "common/sandbox/sbx_jar.h"
#include "common/sandbox/sbx_proto.h"
#include "common/sandbox/sbx_stage.h"
#include "common/sandbox/sbx_warm.h"

#define DIR_WARM ".airlock/warm"
#define LOADER_SRC ".airlock/WarmLoader.java"
#define WARMUP_SRC ".airlock/Warm.java"
#define FD_TO_JVM 3		/* the JVM's: what the helper says */
#define FD_FROM_JVM 4		/* the JVM's: what it answers */

/* The loader: javac's options are the cold stage's (sbx_java.c) but the
 * -J ones (the JVM is this one); the tool's main run as LauncherHelper
 * runs it (its errors' texts), its traces without the loader's frames. */
const char sbx_jwarm_loader[] =
"import java.io.BufferedInputStream;\n"
"import java.io.ByteArrayOutputStream;\n"
"import java.io.DataInputStream;\n"
"import java.io.DataOutputStream;\n"
"import java.io.FileInputStream;\n"
"import java.io.FileOutputStream;\n"
"import java.io.IOException;\n"
"import java.io.OutputStream;\n"
"import java.lang.reflect.InvocationTargetException;\n"
"import java.lang.reflect.Method;\n"
"import java.lang.reflect.Modifier;\n"
"import java.nio.charset.StandardCharsets;\n"
"import java.util.ArrayList;\n"
"import java.util.Arrays;\n"
"import java.util.Collections;\n"
"import java.util.HashMap;\n"
"import java.util.IdentityHashMap;\n"
"import java.util.List;\n"
"import java.util.Map;\n"
"import java.util.Set;\n"
"import javax.tools.ToolProvider;\n"
"\n"
"/* airlock's warm Java loader (common/sandbox/sbx_jwarm.h) */\n"
"public class WarmLoader {\n"
"\tstatic final String[] OPTS = { \"-proc:none\", \"-implicit:none\",\n"
"\t\t\"--limit-modules\", \"java.base\", \"-encoding\", \"UTF-8\",\n"
"\t\t\"-Xmaxerrs\", \"20\", \"-classpath\", \".airlock/empty\",\n"
"\t\t\"-sourcepath\", \".airlock/empty\", \"-d\" };\n"
"\n"
"\tstatic int compile(String dir, List<String> files, OutputStream msg) {\n"
"\t\tList<String> a = new ArrayList<>(Arrays.asList(OPTS));\n"
"\t\ta.add(dir);\n"
"\t\ta.addAll(files);\n"
"\t\treturn ToolProvider.getSystemJavaCompiler().run(null, msg, msg,\n"
"\t\t    a.toArray(new String[0]));\n"
"\t}\n"
"\n"
"\tstatic String str(DataInputStream in) throws IOException {\n"
"\t\tbyte[] b = new byte[in.readUnsignedShort()];\n"
"\t\tin.readFully(b);\n"
"\t\treturn new String(b, StandardCharsets.UTF_8);\n"
"\t}\n"
"\n"
"\t/* the tool's classes: the bytes airlock checked, defined from\n"
"\t * memory; the parent is the platform loader, so no tool class\n"
"\t * resolves a name of this loader's or of jdk.compiler */\n"
"\tstatic final class Checked extends ClassLoader {\n"
"\t\tfinal Map<String, byte[]> bytes = new HashMap<>();\n"
"\n"
"\t\tChecked() {\n"
"\t\t\tsuper(ClassLoader.getPlatformClassLoader());\n"
"\t\t}\n"
"\n"
"\t\t@Override\n"
"\t\tprotected Class<?> findClass(String name)\n"
"\t\t    throws ClassNotFoundException {\n"
"\t\t\tbyte[] b = bytes.remove(name);\n"
"\n"
"\t\t\tif (b == null)\n"
"\t\t\t\tthrow new ClassNotFoundException(name);\n"
"\t\t\treturn defineClass(name, b, 0, b.length);\n"
"\t\t}\n"
"\t}\n"
"\n"
"\tpublic static void main(String[] args) throws Throwable {\n"
"\t\tfor (int i = 0; i < 3; i++)\n"
"\t\t\tcompile(\".airlock/warm\", List.of(\".airlock/Warm.java\"),\n"
"\t\t\t    OutputStream.nullOutputStream());\n"
"\t\tSystem.gc();\n"
"\t\tDataOutputStream out = new DataOutputStream(\n"
"\t\t    new FileOutputStream(\"/proc/self/fd/4\"));\n"
"\t\tDataInputStream in = new DataInputStream(new BufferedInputStream(\n"
"\t\t    new FileInputStream(\"/proc/self/fd/3\")));\n"
"\t\tChecked cl = new Checked();\n"
"\t\tString main = null;\n"
"\n"
"\t\tout.writeByte('W');\n"
"\t\tout.flush();\n"
"\t\twhile (main == null) {\n"
"\t\t\tint op = in.read();\n"
"\n"
"\t\t\tif (op == 'C') {\n"
"\t\t\t\tByteArrayOutputStream msg = new ByteArrayOutputStream();\n"
"\t\t\t\tList<String> files = new ArrayList<>();\n"
"\n"
"\t\t\t\tfor (int n = in.readUnsignedShort(); n > 0; n--)\n"
"\t\t\t\t\tfiles.add(str(in));\n"
"\t\t\t\tint rc = compile(\".airlock/classes\", files, msg);\n"
"\t\t\t\tbyte[] m = msg.toByteArray();\n"
"\n"
"\t\t\t\tout.writeByte(rc == 0 ? 0 : 1);\n"
"\t\t\t\tout.writeInt(m.length);\n"
"\t\t\t\tout.write(m);\n"
"\t\t\t\tout.flush();\n"
"\t\t\t} else if (op == 'K') {\n"
"\t\t\t\tString name = str(in);\n"
"\t\t\t\tbyte[] b = new byte[in.readInt()];\n"
"\n"
"\t\t\t\tin.readFully(b);\n"
"\t\t\t\tcl.bytes.put(name, b);\n"
"\t\t\t} else if (op == 'R') {\n"
"\t\t\t\tmain = str(in);\n"
"\t\t\t} else {\n"
"\t\t\t\tSystem.exit(op == 'Q' ? 0 : 125);\n"
"\t\t\t}\n"
"\t\t}\n"
"\t\tin.close();\n"
"\t\tout.close();\n"
"\t\trun(cl, main);\n"
"\t}\n"
"\n"
"\t/* as the java launcher runs a main class (LauncherHelper) */\n"
"\tstatic void run(Checked cl, String name) throws Throwable {\n"
"\t\tClass<?> c = Class.forName(name, false, cl);\n"
"\t\tMethod m = null;\n"
"\t\tStackTraceElement[] here;\n"
"\t\tThrowable thrown;\n"
"\n"
"\t\ttry {\n"
"\t\t\tm = c.getMethod(\"main\", String[].class);\n"
"\t\t} catch (NoSuchMethodException e) {\n"
"\t\t\tdie(\"Error: Main method not found in class \" + name +\n"
"\t\t\t    \", please define the main method as:\\n   public \" +\n"
"\t\t\t    \"static void main(String[] args)\\nor a JavaFX \" +\n"
"\t\t\t    \"application class must extend \" +\n"
"\t\t\t    \"javafx.application.Application\");\n"
"\t\t}\n"
"\t\tif (!Modifier.isStatic(m.getModifiers()))\n"
"\t\t\tdie(\"Error: Main method is not static in class \" + name +\n"
"\t\t\t    \", please define the main method as:\\n   public \" +\n"
"\t\t\t    \"static void main(String[] args)\");\n"
"\t\tif (m.getReturnType() != void.class)\n"
"\t\t\tdie(\"Error: Main method must return a value of type void \" +\n"
"\t\t\t    \"in class \" + name + \", please\\ndefine the main \" +\n"
"\t\t\t    \"method as:\\n   public static void main(String[] args)\");\n"
"\t\tm.setAccessible(true);\n"
"\t\tThread.currentThread().setContextClassLoader(cl);\n"
"\t\tSystem.clearProperty(\"jdk.internal.javac.source\");\n"
"\t\tSystem.setProperty(\"sun.java.command\", name);\n"
"\t\there = new Throwable().getStackTrace();\n"
"\t\ttry {\n"
"\t\t\tm.invoke(null, (Object) new String[0]);\n"
"\t\t\treturn;\n"
"\t\t} catch (InvocationTargetException e) {\n"
"\t\t\tthrown = e.getCause();\n"
"\t\t} catch (ExceptionInInitializerError e) {\n"
"\t\t\tthrown = e;\n"
"\t\t}\n"
"\t\ttrim(thrown, here, Collections.newSetFromMap(\n"
"\t\t    new IdentityHashMap<>()));\n"
"\t\t/* the source launcher cuts its own frames (all below main)\n"
"\t\t * off what main throws: give it those to cut */\n"
"\t\tStackTraceElement[] t = thrown.getStackTrace();\n"
"\t\tStackTraceElement[] w = Arrays.copyOf(t, t.length + here.length - 2);\n"
"\n"
"\t\tSystem.arraycopy(here, 2, w, t.length, here.length - 2);\n"
"\t\tthrown.setStackTrace(w);\n"
"\t\tthrow thrown;\n"
"\t}\n"
"\n"
"\tstatic void die(String msg) {\n"
"\t\tSystem.err.println(msg);\n"
"\t\tSystem.exit(1);\n"
"\t}\n"
"\n"
"\t/* a trace as a cold start has it: none of this loader's frames, nor\n"
"\t * of the reflection that called main */\n"
"\tstatic void trim(Throwable t, StackTraceElement[] here,\n"
"\t    Set<Throwable> seen) {\n"
"\t\tif (t == null || !seen.add(t))\n"
"\t\t\treturn;\n"
"\t\tStackTraceElement[] s = t.getStackTrace();\n"
"\t\tint k = here.length, cut = s.length - k;\n"
"\n"
"\t\tif (cut >= 0 && s[cut].getMethodName().equals(\"run\") &&\n"
"\t\t    s[cut].getClassName().equals(WarmLoader.class.getName()) &&\n"
"\t\t    Arrays.equals(s, cut + 1, s.length, here, 1, k)) {\n"
"\t\t\twhile (cut > 0 && (s[cut - 1].getClassName().startsWith(\n"
"\t\t\t    \"jdk.internal.reflect.\") || s[cut - 1].getClassName()\n"
"\t\t\t    .equals(\"java.lang.reflect.Method\")))\n"
"\t\t\t\tcut--;\n"
"\t\t\tt.setStackTrace(Arrays.copyOf(s, cut));\n"
"\t\t}\n"
"\t\ttrim(t.getCause(), here, seen);\n"
"\t\tfor (Throwable x : t.getSuppressed())\n"
"\t\t\ttrim(x, here, seen);\n"
"\t}\n"
"}\n";

/* Compiled while the slot waits, never run. */
const char sbx_jwarm_warmup[] =
"import java.util.ArrayList;\n"
"import java.util.List;\n"
"import java.util.Map;\n"
"import java.util.function.IntUnaryOperator;\n"
"import java.util.stream.Collectors;\n"
"\n"
"/* compiled while a warm slot waits, never run: javac's own classes\n"
" * loaded and compiled before a tool's sources come */\n"
"public class Warm {\n"
"\trecord P(int a, String b) {}\n"
"\n"
"\tpublic static void main(String[] args) throws Exception {\n"
"\t\tList<P> l = new ArrayList<>();\n"
"\n"
"\t\tfor (int i = 0; i < 10; i++)\n"
"\t\t\tl.add(new P(i, \"x\" + i));\n"
"\t\tMap<String, Integer> m = l.stream().collect(\n"
"\t\t    Collectors.toMap(P::b, P::a));\n"
"\t\tIntUnaryOperator f = x -> x * 2;\n"
"\t\tStringBuilder sb = new StringBuilder();\n"
"\n"
"\t\ttry {\n"
"\t\t\tsb.append(String.format(\"%d\", f.applyAsInt(m.size())));\n"
"\t\t} catch (RuntimeException e) {\n"
"\t\t\tthrow new IllegalStateException(\"warm\", e);\n"
"\t\t}\n"
"\t\tswitch (args.length) {\n"
"\t\tcase 0 -> System.out.println(sb);\n"
"\t\tdefault -> { }\n"
"\t\t}\n"
"\t}\n"
"}\n";

static int
read_exact(int fd, void *buf, size_t n)
{
	uint8_t *p = buf;

	while (n > 0) {
		ssize_t got = read(fd, p, n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		p += got;
		n -= (size_t)got;
	}
	return 0;
}

/* A big-endian integer of n bytes from fd. */
static int
read_be(int fd, size_t n, uint32_t *v)
{
	uint8_t b[4];

	if (n > sizeof b || read_exact(fd, b, n) != 0)
		return -1;
	*v = 0;
	for (size_t i = 0; i < n; i++)
		*v = *v << 8 | b[i];
	return 0;
}

/* One frame to the JVM: op, then (when s) len:u16 s, then (when data)
 * size:u32 data. */
static int
say(int fd, char op, const char *s, const uint8_t *data, size_t len)
{
	uint8_t hdr[1 + 2];
	size_t n = s ? strlen(s) : 0;
	struct wr w = wr_init(hdr, sizeof hdr);

	if (n > UINT16_MAX || len > UINT32_MAX)
		return -1;
	wr_u8(&w, (uint8_t)op);
	if (s)
		wr_u16(&w, (uint16_t)n);
	if (file_write_all(fd, hdr, w.off) != 0 ||
	    (s && file_write_all(fd, s, n) != 0))
		return -1;
	if (data) {
		uint8_t sz[4] = { (uint8_t)(len >> 24), (uint8_t)(len >> 16),
			(uint8_t)(len >> 8), (uint8_t)len };

		if (file_write_all(fd, sz, 4) != 0 ||
		    file_write_all(fd, data, len) != 0)
			return -1;
	}
	return 0;
}

/* The tool's files from stdin (sbx_warm.h's record, which the service
 * built from a checked request; its decoder still checks every length
 * against the protocol's caps before it is read, and the names as a
 * request's), read exactly: never a byte past the record, the rest of
 * stdin is the tool's input. Then written into the work directory as the
 * jail writes a cold start's. 0 and rec's files, or -1 (the stage record
 * written). */
static int
take_files(struct sbx_warm_rec *rec)
{
	static uint8_t buf[1 << 16];
	enum sbx_warm_rc rc = SBX_WARM_NEED;
	size_t want, used;

	sbx_warm_rec_init(rec);
	while (rc == SBX_WARM_NEED) {
		want = sbx_warm_rec_want(rec);
		want = want < sizeof buf ? want : sizeof buf;
		if (want == 0 || read_exact(0, buf, want) != 0)
			break;
		rc = sbx_warm_rec_feed(rec, buf, want, &used);
	}
	if (rc != SBX_WARM_OK) {
		sbx_java_fail(SBX_STAGE_ERROR, "the warm slot's record of "
		    "files is malformed", NULL);
		return -1;
	}
	for (size_t i = 0; i < rec->nfiles; i++) {
		const struct sbx_file_data *f = &rec->files[i];
		int fd = open(f->name, O_WRONLY | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, 0644);

		if (fd < 0 || file_write_all(fd, f->data, f->len) != 0) {
			if (fd >= 0)
				close(fd);
			sbx_java_fail(SBX_STAGE_ERROR, "cannot write ",
			    f->name);
			return -1;
		}
		close(fd);
	}
	return 0;
}

/* javac's answer to C: 0 compiled; 1 not (the record written); -1 the
 * JVM is gone. */
static int
compiled(int from)
{
	static char msg[SBX_DETAIL_MAX];
	uint32_t status, len, keep;

	if (read_be(from, 1, &status) != 0 || read_be(from, 4, &len) != 0)
		return -1;
	keep = len < sizeof msg ? len : sizeof msg;
	if (read_exact(from, msg, keep) != 0)
		return -1;
	if (status == 0)
		return 0;
	if (keep == 0)
		keep = (uint32_t)snprintf(msg, sizeof msg, "javac failed");
	sbx_java_record(SBX_STAGE_COMPILE, msg, keep);
	return 1;
}

/* javacheck's take: a class that passed goes to the JVM by its binary
 * name (pkg/A$1.class: pkg.A$1), the very bytes checked. */
static int
send_class(void *ctx, const char *path, const uint8_t *buf, size_t len)
{
	char name[SBX_JAR_NAME_MAX + 1];
	size_t n = strlen(path);

	if (n <= 6 || n - 6 >= sizeof name || strcmp(path + n - 6, ".class")) {
		errno = EINVAL;
		return -1;
	}
	for (size_t i = 0; i < n - 6; i++)
		name[i] = path[i] == '/' ? '.' : path[i];
	name[n - 6] = '\0';
	return say(*(int *)ctx, 'K', name, buf, len);
}

/* The helper: ready, then one call. Its exit status is nobody's (its
 * parent is the jail's pid 1); what it found is in the stage record. */
static int
helper(const struct sbx_java_opts *o, int to, int from)
{
	static struct sbx_warm_rec rec;
	char *files[SBX_FILES_MAX], cls[256], path[512], why[JAVACHECK_WHY_MAX];
	struct javacheck_policy pol;
	enum javacheck_status js;
	struct stat st;
	uint32_t w;
	size_t n = 0, nj = 0;
	int dfd;

	if (sbx_java_policy(o, &pol) != 0)
		return 1;
	if (read_be(from, 1, &w) != 0 || w != 'W' ||
	    file_write_all(1, SBX_STAGE_READY, SBX_STAGE_READY_LEN) != 0)
		return 1;
	if (take_files(&rec) != 0)
		return say(to, 'Q', NULL, NULL, 0), 1;
	n = rec.nfiles;
	for (size_t i = 0; i < n; i++)
		files[i] = rec.names[i];
	if (sbx_java_main_class(files, n, cls, sizeof cls) != 0)
		return say(to, 'Q', NULL, NULL, 0), 1;
	/* only the given sources, in their order, as the cold stage's
	 * javac command line has them */
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(files[i]);

		if (len > 5 && strcmp(files[i] + len - 5, ".java") == 0)
			files[nj++] = files[i];
	}
	{
		uint8_t c[3] = { 'C', (uint8_t)(nj >> 8), (uint8_t)nj };

		if (file_write_all(to, c, sizeof c) != 0)
			return 1;
		for (size_t i = 0; i < nj; i++) {
			uint8_t l[2] = { (uint8_t)(strlen(files[i]) >> 8),
				(uint8_t)strlen(files[i]) };

			if (file_write_all(to, l, 2) != 0 ||
			    file_write_all(to, files[i], strlen(files[i])) != 0)
				return 1;
		}
	}
	if (compiled(from) != 0)
		return say(to, 'Q', NULL, NULL, 0), 1;
	snprintf(path, sizeof path, SBX_JAVA_DIR_CLASSES "/%s.class", cls);
	if (lstat(path, &st) != 0) {
		sbx_java_fail(SBX_STAGE_COMPILE, "the first file must declare "
		    "the tool's main class ", cls);
		return say(to, 'Q', NULL, NULL, 0), 1;
	}
	dfd = open(SBX_JAVA_DIR_CLASSES, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (dfd < 0) {
		sbx_java_fail(SBX_STAGE_ERROR, "cannot open the classes: ",
		    strerror(errno));
		return say(to, 'Q', NULL, NULL, 0), 1;
	}
	js = javacheck_tree_take(&pol, dfd, NULL, why, sizeof why, send_class,
	    &to);
	close(dfd);
	javacheck_policy_free(&pol);
	if (js != JAVACHECK_OK) {
		sbx_java_record(js == JAVACHECK_ERROR ? SBX_STAGE_ERROR :
		    SBX_STAGE_VERIFY, why, strlen(why));
		return say(to, 'Q', NULL, NULL, 0), 1;
	}
	/* the verdict first on stdout: nothing of the tool's can precede it */
	if (sbx_java_record(SBX_STAGE_OK, "", 0) != 0 ||
	    say(to, 'R', cls, NULL, 0) != 0)
		return 1;
	return 0;
}

/* fd onto target (and not close-on-exec), whatever number it had. */
static int
place_fd(int fd, int target)
{
	int high = fcntl(fd, F_DUPFD_CLOEXEC, 10);

	if (high < 0 || dup2(high, target) != target)
		return -1;
	close(high);
	return 0;
}

int
sbx_jwarm_stage(const struct sbx_java_opts *o)
{
	struct sbx_jar empty;
	char java[4096], xmx[64], cp[64], *argv[24];
	int tj[2], fj[2], st, jar;
	size_t a = 0;
	pid_t pid;

	if (!o->unconfined && sbx_java_confine_writes() != 0)
		return sbx_java_fail(SBX_STAGE_ERROR, "cannot confine the "
		    "JVM's writes (Landlock): ", strerror(errno)), 1;
	if (sbx_java_workdirs() != 0)
		return 1;
	if (mkdir(DIR_WARM, 0700) != 0 || file_create(LOADER_SRC,
	    sbx_jwarm_loader, strlen(sbx_jwarm_loader), 0444) != 0 ||
	    file_create(WARMUP_SRC, sbx_jwarm_warmup,
	    strlen(sbx_jwarm_warmup), 0444) != 0)
		return sbx_java_fail(SBX_STAGE_ERROR, "cannot write the warm "
		    "loader: ", strerror(errno)), 1;
	if (pipe2(tj, O_CLOEXEC) != 0 || pipe2(fj, O_CLOEXEC) != 0)
		return sbx_java_fail(SBX_STAGE_ERROR, "pipe: ",
		    strerror(errno)), 1;
	/* the helper, twice forked: the jail's pid 1 reaps it, not the JVM */
	pid = fork();
	if (pid == 0) {
		pid_t h = fork();

		if (h != 0)
			_exit(h < 0);
		close(tj[0]);
		close(fj[1]);
		_exit(helper(o, tj[1], fj[0]));
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		return sbx_java_fail(SBX_STAGE_ERROR, "cannot start the warm "
		    "stage's helper", NULL), 1;
	close(tj[1]);
	close(fj[0]);
	if (place_fd(tj[0], FD_TO_JVM) != 0 || place_fd(fj[1], FD_FROM_JVM) != 0)
		return sbx_java_fail(SBX_STAGE_ERROR, "dup2: ",
		    strerror(errno)), 1;
	/* the application class path: an empty sealed jar. Without -cp it
	 * would be the work directory, where the tool's files are: service
	 * providers and resources the JDK looks up through the system
	 * class loader would come from what the tool writes */
	if (sbx_jar_open(&empty) != 0 || (jar = sbx_jar_seal(&empty)) < 0)
		return sbx_java_fail(SBX_STAGE_ERROR, "cannot make the empty "
		    "class path: ", strerror(errno)), 1;
	snprintf(cp, sizeof cp, "/proc/self/fd/%d", jar);
	snprintf(java, sizeof java, "%s/bin/java", o->java_home);
	snprintf(xmx, sizeof xmx, "-Xmx%lluk",
	    (unsigned long long)(o->heap >> 10));
	argv[a++] = java;
	a = sbx_java_jvm_flags(argv, a, xmx);
	argv[a++] = "--limit-modules";
	argv[a++] = SBX_JAVA_MODULES ",jdk.compiler";
	argv[a++] = "-cp";
	argv[a++] = cp;
	argv[a++] = LOADER_SRC;
	argv[a] = NULL;
	execv(java, argv);
	return sbx_java_fail(SBX_STAGE_ERROR, "cannot exec java: ",
	    strerror(errno)), 127;
}
