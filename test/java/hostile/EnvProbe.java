// EnvProbe.java - what the JVM took from the environment: the sandbox's
// own JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS, _JAVA_OPTIONS and CLASSPATH
// must never reach the tool's JVM (they would add agents, class path
// entries or properties nobody checked).
public class EnvProbe {
	public static void main(String[] args) {
		System.out.println("property=" + System.getProperty("airlock.injected")
		    + " classpath-is-jar=" + System.getProperty("java.class.path")
		    .startsWith("/proc/self/fd/")
		    + " JAVA_TOOL_OPTIONS=" + System.getenv("JAVA_TOOL_OPTIONS")
		    + " JDK_JAVA_OPTIONS=" + System.getenv("JDK_JAVA_OPTIONS")
		    + " _JAVA_OPTIONS=" + System.getenv("_JAVA_OPTIONS")
		    + " CLASSPATH=" + System.getenv("CLASSPATH"));
	}
}
