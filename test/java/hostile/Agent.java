// Agent.java - loads an agent into its own JVM through the attach API,
// then redefines classes with the Instrumentation it is handed. Neither
// java.instrument nor jdk.attach is in the sandbox's module graph
// (java.base alone): it does not compile.
import com.sun.tools.attach.VirtualMachine;
import java.lang.instrument.Instrumentation;

public class Agent {
	public static void agentmain(String a, Instrumentation inst) {
		System.out.println("DENYLIST-BYPASSED agent " + inst);
	}

	public static void main(String[] args) throws Exception {
		VirtualMachine.attach(String.valueOf(ProcessHandle.current().pid()))
		    .loadAgent("/tmp/agent.jar");
	}
}
