// AuthProviderBuild.java - construction by name without naming Provider:
// a subclass of java.security.AuthProvider (Provider's public subclass in
// java.base) adds a legacy service entry with the inherited put, whose
// class name is a run-time string; Security's provider list, set by a
// property to this class's name, makes MessageDigest.getInstance build
// that class by java.base's reflection before it checks the type (a
// sun.* class here, which the tool may not name). Refused before it
// runs: java.security.AuthProvider is on the denylist.
import java.security.AuthProvider;
import java.security.MessageDigest;
import java.security.Security;
import javax.security.auth.Subject;
import javax.security.auth.callback.CallbackHandler;

public class AuthProviderBuild extends AuthProvider {
	public AuthProviderBuild() {
		super("AirlockY", "1", "y");
		put("MessageDigest.AIRLOCKY",
		    new StringBuilder("nuS.redivorp.ytiruces.nus").reverse()
		    .toString());
	}

	public void login(Subject s, CallbackHandler h) {
	}

	public void logout() {
	}

	public void setCallbackHandler(CallbackHandler h) {
	}

	public static void main(String[] args) {
		Security.setProperty("security.provider.1", "AuthProviderBuild");
		try {
			MessageDigest.getInstance("AIRLOCKY");
			System.out.println("{\"built\":\"none\"}");
		} catch (Throwable t) {
			// the JDK built the named class, then found it no digest
			System.out.println(t.getMessage().contains("provider.Sun")
			    ? "{\"built\":\"sun.security.provider.Sun\"}"
			    : "{\"error\":\"" + t.getClass().getName() + "\"}");
		}
	}
}
